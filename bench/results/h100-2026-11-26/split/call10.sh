# Call 10: the 16-bit conv lines (and the backward's) side by side again on the final code (the slab
# arrays one array, STAGED=1 in gemm.plan), since call 4 timed the convs before those changes.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c10; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 280 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/mma_conv/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c10 && rm -rf c10
