# Call 9: the 16-bit GEMM lines after the core's store became STORE_FRAGMENTS_WHERE (matmul's
# entries unchanged), against run 2 (the same lines before it, `run2/sbs/ours.log`): does it cost anything?
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c9; mkdir -p $O
timeout 200 .gpu/plumbline bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.01 --batch bench/results/h100-2026-11-26/mma/gemm16.batch > $O/bench.log 2>&1
grep -E "@nvidia" $O/bench.log | head -30
cd $OUT && tar czf r.tgz c9 && rm -rf c9
