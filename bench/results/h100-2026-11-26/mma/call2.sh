# Call 2: ncu on xgemm_mma at the tuned entries (large: tb = 1; medium: tb = 0), to see what bounds it.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c2; mkdir -p $O
P=.gpu/plumbline
S="--section SpeedOfLight --section Occupancy --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section LaunchStats --section InstructionStats --section SourceCounters"
for prob in "matmul:m=4096,k=1024,n=3072,tb=1,dtype=bf16" "matmul:m=4096,k=1024,n=1024,dtype=f16"; do
  timeout 150 ncu --clock-control none -k regex:xgemm_mma -s 4 -c 1 $S $P bench --device nvidia:0 --problem "$prob" --repetitions 3 --min-time 0.001 >> $O/ncu.log 2>&1
done
cd $OUT && tar czf r.tgz c2 && rm -rf c2
