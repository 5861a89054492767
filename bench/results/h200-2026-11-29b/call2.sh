# Call 2 (2026-11-29, H200): the 16-bit and GEMM batches beside PyTorch (reduced_precision, transformer_gemm,
# depthwise_conv): the rest of issue 15's "no kernel below 0.5x PyTorch" on the H200.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c2; mkdir -p $O
timeout 570 bash bench/side_by_side.sh $PWD/.gpu/plumbline $O/sbs python3 0.01 --check-budget 1e8 --batch bench/batches/reduced_precision.batch --batch bench/batches/transformer_gemm.batch --batch bench/batches/depthwise_conv.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
grep -E "^\|" $O/sbs/side_by_side.md | cut -c1-200 | head -90
cd $OUT && tar -czf c2.tgz c2 && rm -rf c2
