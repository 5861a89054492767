# Call 12: the 16-bit GEMM lines (stop 39's gemm16.batch) side by side with PyTorch at the final entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c12; mkdir -p $O
timeout 300 bash bench/side_by_side.sh .gpu/plumbline $O/sbs python3 0.01 --batch bench/results/h100-2026-11-26/mma/gemm16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c12 && rm -rf c12
