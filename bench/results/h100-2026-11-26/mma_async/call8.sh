# Call 8: every 16-bit line side by side with PyTorch at the final entries (ASYNC=1 for the GEMMs, the
# 1x1 convolution and the linear backward; mma_igemm's tune kept the ring).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c8; mkdir -p $O
R=bench/results/h100-2026-11-26
timeout 280 bash bench/side_by_side.sh .gpu/plumbline $O/gemm python3 0.01 --batch $R/mma/gemm16.batch > $O/gemm.log 2>&1
grep "|" $O/gemm/side_by_side.md
timeout 280 bash bench/side_by_side.sh .gpu/plumbline $O/conv python3 0.01 --batch $R/mma_conv/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md
cd $OUT && tar czf r.tgz c8 && rm -rf c8
