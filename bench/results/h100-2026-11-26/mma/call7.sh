# Call 7: xgemm_mma through CUDA (ptxprof: NVIDIA's OpenCL builds it, its PTX runs through the driver
# API) so that ncu reads its counters; its SASS through ptxas and cuobjdump.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
O=$OUT/c7; mkdir -p $O
export PATH=$PATH:/usr/local/cuda/bin
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu | head -1)
K=opencl/kernels
L="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -DPREFETCH=2"
.gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$L" 4096 1024 3072 1 5 $O/large.ptx > $O/run.log 2>&1
cat $O/run.log
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats --section InstructionStats --section SourceCounters --section LaunchStats"
timeout 200 $NCU --clock-control none -k regex:xgemm_mma -s 5 -c 1 $S .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$L" 4096 1024 3072 1 1 $O/x.ptx > $O/ncu_large.log 2>&1
ptxas -arch=sm_90a $O/large.ptx -o $O/large.cubin > $O/ptxas.log 2>&1 && cuobjdump -sass $O/large.cubin > $O/large.sass 2>&1
tail -80 $O/ncu_large.log
cd $OUT && tar czf r.tgz c7 && rm -rf c7
