# Call 3: ASYNC=1 with its chunk copies unrolled and one plain copy a chunk inside the matrix (call 2's
# SASS: 4.4x the ring's instructions, nearly all in the copy loops): times and counters through
# ptxprof, then matmul's mma tuned again.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c3; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
K=opencl/kernels; D=bench/results/h100-2026-11-26/mma_async
T="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4"
M="smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread"
for s in barrier long_scoreboard short_scoreboard mio_throttle math_pipe_throttle wait not_selected selected; do M="$M,smsp__warp_issue_stalled_${s}_per_warp_active.pct"; done
i=0
for d in "-DKWG=32 -DASYNC=0 -DPREFETCH=2" "-DKWG=32 -DASYNC=1 -DSTAGES=2" "-DKWG=16 -DASYNC=1 -DSTAGES=4" "-DKWG=16 -DASYNC=1 -DSTAGES=3" "-DKWG=32 -DASYNC=1 -DSTAGES=2 -DMWARPS=4 -DNWARPS=2"; do
  i=$((i+1)); echo "== $i: $d"
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T $d" 4096 1024 3072 1 5 $O/k$i.ptx 2>&1 | tail -1
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T $d" 4096 1024 1024 0 5 $O/k$i.ptx 2>&1 | tail -1
done
timeout 100 $NCU --clock-control none -k regex:xgemm_mma -s 3 -c 1 --metrics $M .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$T -DKWG=32 -DASYNC=1 -DSTAGES=2" 4096 1024 3072 1 1 $O/x.ptx > $O/ncu2.log 2>&1
grep -E "stalled|inst_executed|hmma|warps_active|registers" $O/ncu2.log | awk '{print $1, $NF}' | sed 's/smsp__warp_issue_stalled_//'
ptxas -arch=sm_90a $O/k2.ptx -o $O/k2.cubin > $O/ptxas.log 2>&1 && cuobjdump -sass $O/k2.cubin > $O/k2.sass 2>&1; gzip $O/k2.sass
timeout 230 .gpu/plumbline tune matmul --variant mma --device nvidia:0 --budget 160 --batch $D/../mma/matmul16.batch --json $O/tune.json \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 STAGES=2" --start "MWG=256 NWG=128 KWG=16 MWARPS=4 NWARPS=2 STAGES=3" --start "MWG=128 NWG=128 KWG=16 MWARPS=2 NWARPS=4 STAGES=4" > $O/tune.log 2>&1
grep winner $O/tune.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c3 && rm -rf c3
