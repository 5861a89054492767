# Call 6: the convolution and backward lines of reduced_precision.batch side by side with PyTorch at
# the final entries (mma_igemm narrow with PIXELS_M=1).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c6; mkdir -p $O
timeout 400 bash bench/side_by_side.sh .gpu/plumbline $O/sbs python3 0.01 --batch $R/conv16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c6 && rm -rf c6
