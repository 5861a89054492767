# Call 6: fragments double-buffered in registers, one barrier a slab before its last group (CUTLASS's
# multistage loop): ptxprof times at a few tiles against the ring, counters at one; the 3x3 lines again.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c6; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
K=opencl/kernels; R=bench/results/h100-2026-11-26/mma_conv
T="-I$K -DDTYPE_BF16"
M="smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
for s in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait not_selected selected; do M="$M,smsp__warp_issue_stalled_${s}_per_warp_active.pct"; done
for d in "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=32 -DASYNC=0 -DPREFETCH=2" "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=32 -DASYNC=1 -DSTAGES=2" \
  "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=16 -DASYNC=1 -DSTAGES=4" "-DMWG=128 -DNWG=128 -DMWARPS=1 -DNWARPS=4 -DKWG=16 -DASYNC=1 -DSTAGES=4" \
  "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=2 -DKWG=32 -DASYNC=1 -DSTAGES=2" "-DMWG=256 -DNWG=128 -DMWARPS=4 -DNWARPS=2 -DKWG=16 -DASYNC=1 -DSTAGES=3" \
  "-DMWG=128 -DNWG=256 -DMWARPS=2 -DNWARPS=4 -DKWG=16 -DASYNC=1 -DSTAGES=3" "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=64 -DASYNC=1 -DSTAGES=2"; do
  echo "== $d"
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T $d" 4096 1024 3072 1 5 $O/k.ptx 2>&1 | tail -1
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T $d" 4096 1024 1024 0 5 $O/k.ptx 2>&1 | tail -1
done
timeout 100 $NCU --clock-control none -k regex:xgemm_mma -s 3 -c 1 --metrics $M .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T -DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=32 -DASYNC=1 -DSTAGES=2" 4096 1024 3072 1 1 $O/x.ptx > $O/ncu.log 2>&1
grep -E "stalled|inst_executed|hmma|warps_active|registers" $O/ncu.log | awk '{print $1, $NF}' | sed 's/smsp__warp_issue_stalled_//'
P=.gpu/plumbline; A="ASYNC=1,PREFETCH=1"
timeout 100 $P check matmul --device nvidia:0 --variant mma --cases 24 --seed 61 > $O/check.log 2>&1
timeout 100 $P check conv2d --device nvidia:0 --variant mma_igemm --define $A,STAGES=3,PIXELS_M=1 --cases 16 --seed 62 >> $O/check.log 2>&1
grep -E "pass|FAIL|rror" $O/check.log
B="$P bench --device nvidia:0 --variant mma_igemm --timing stream --repetitions 9 --min-time 0.01"
for d in "MWG=64,NWG=128,KWG=32,MWARPS=2,NWARPS=4,STAGES=2,PIXELS_M=0" "MWG=128,NWG=64,KWG=32,MWARPS=4,NWARPS=2,STAGES=2,PIXELS_M=1" "MWG=128,NWG=128,KWG=16,MWARPS=2,NWARPS=4,STAGES=4,PIXELS_M=1"; do
  echo "== $d" >> $O/async.log; $B --define $A,$d --batch $R/narrow.batch --batch $R/wide.batch >> $O/async.log 2>&1; done
grep -E "== |ms " $O/async.log | awk '{print $1, $2}'
cd $OUT && tar czf r.tgz c6 && rm -rf c6
