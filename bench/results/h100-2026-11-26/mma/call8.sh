# Call 8: A's slab in the fragment's order (one 128-bit load a fragment, no register moves): registers,
# checks, the 16-bit GEMM lines at the tuned entries, counters through ptxprof, a short retune, and
# side by side with PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
R=bench/results/h100-2026-11-26/mma
O=$OUT/c8; mkdir -p $O
P=.gpu/plumbline
K=opencl/kernels
L="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -DPREFETCH=2"
( cd $K && ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DPREFETCH=2 -cl-nv-verbose -I." | grep -E "Used|limit" ) > $O/kinfo.log 2>&1
for op in matmul gemm_bias_act; do timeout 100 $P check $op --device nvidia:0 --variant mma --cases 32 --seed 12 >> $O/check.log 2>&1; done
cat $O/check.log
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.01 --batch $R/gemm16.batch > $O/bench.log 2>&1
grep -E "matmul:|gemm_bias" $O/bench.log
.gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$L" 4096 1024 3072 1 3 $O/large.ptx > $O/ptxprof.log 2>&1
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats --section SourceCounters"
timeout 120 $NCU --clock-control none -k regex:xgemm_mma -s 5 -c 1 $S .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$L" 4096 1024 3072 1 1 $O/x.ptx > $O/ncu_large.log 2>&1
ptxas -arch=sm_90a $O/large.ptx -o $O/large.cubin > $O/ptxas.log 2>&1 && cuobjdump -sass $O/large.cubin > $O/large.sass 2>&1
S1="MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 PREFETCH=2"; S2="MWG=256 NWG=128 KWG=16 MWARPS=4 NWARPS=2 PREFETCH=2"; S3="MWG=128 NWG=256 KWG=16 MWARPS=2 NWARPS=4 PREFETCH=2"
timeout 130 $P tune matmul --device nvidia:0 --variant mma --batch $R/gemm16.batch --budget 110 --start "$S1" --start "$S2" --start "$S3" > $O/tune_matmul.log 2>&1
timeout 100 $P tune gemm_bias_act --device nvidia:0 --variant mma --batch $R/gemm16.batch --budget 80 --start "$S1" --start "$S2" --start "$S3" > $O/tune_gba.log 2>&1
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 150 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/gemm16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c8 && rm -rf c8
