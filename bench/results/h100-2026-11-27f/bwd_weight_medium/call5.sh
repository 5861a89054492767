# Call 5 (stop 49): the 1x1 layers of k c > 65536 (large1x1.batch) on wgmma_gemm too? Paired, the
# plan with its condition widened (wide.plan: k c <= 1048576, h w >= 49) against the plan as committed
# (now.plan); each problem checked first by bench. Then the 16-bit conv batch by side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/w5; mkdir -p $O
R=bench/results/h100-2026-11-27f/bwd_weight_medium
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 150 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch $R/large1x1.batch --plan $R/wide.plan --baseline-plan $R/now.plan > $O/paired.log 2>&1
grep -E "ratio|error|FAIL" $O/paired.log | cut -c1-250
grep conv2d bench/batches/reduced_precision.batch > /tmp/conv16.batch
timeout 150 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch /tmp/conv16.batch > $O/sbs.log 2>&1
cat $O/sbs/side_by_side.md 2>/dev/null | grep conv2d | cut -d'|' -f2,3,10
