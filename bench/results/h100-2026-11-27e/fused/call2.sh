# Call 2: call 1's fused epilogue took 1.168 ms against 0.500 before (paired, bf16): act_slope inlined
# once for each of a work-item's 64 accumulators (activation.h: inlined, the GEMM's main loop is
# scheduled worse). Here with ACT_CALL=1 (act_slope called), paired against before.plan again, and
# ptxas's registers and spills of the fused kernel's PTX from plumbline's program cache.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc2
O=$OUT/c2; mkdir -p $O
R=bench/results/h100-2026-11-27e/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
grep gelu $R/bwd16.batch > /tmp/gelu_bwd.batch
timeout 150 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch /tmp/gelu_bwd.batch --baseline-plan $R/before.plan > $O/paired.log 2>&1
grep -E "ratio|error|FAIL" $O/paired.log | cut -c1-250
for f in $(grep -l "xgemm_mma_grad_split" -r /tmp/plc2 /tmp/plc 2>/dev/null | head -4); do
  echo "== $f"; /usr/local/cuda/bin/ptxas -v -arch=sm_90a "$f" -o /tmp/x.cubin 2>&1 | grep -A1 "grad_split" | head -4
done 2>&1 | tee $O/ptxas.log
ls -la /tmp/plc2 | head
