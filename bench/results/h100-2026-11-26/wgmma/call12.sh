# Call 12: the final entries (conv's wgmma_igemm `few` off): every 16-bit line side by side with PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c12; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
$P devices 2>&1 | grep -i "feature\|nvidia" | head -5 | tee $O/devices.log
timeout 200 bash bench/side_by_side.sh $P $O/gemm python3 0.01 --batch $R/mma/gemm16.batch > $O/gemm.log 2>&1
grep "|" $O/gemm/side_by_side.md
timeout 220 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/mma_conv/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md
cd $OUT && tar czf r.tgz c12 && rm -rf c12
