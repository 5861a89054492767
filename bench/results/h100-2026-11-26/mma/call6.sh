# Call 6: the 16-bit GEMM lines side by side with PyTorch at the tuned entries (opencl/tuning), with the
# tensor-core calibration (calibration_mma.cl) giving their roofline.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma
O=$OUT/c6; mkdir -p $O
P=.gpu/plumbline
$P devices --device nvidia:0 > $O/devices.log 2>&1
timeout 200 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/gemm16.batch > $O/sbs.log 2>&1
cd $OUT && tar czf r.tgz c6 && rm -rf c6
