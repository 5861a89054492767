# gemm_bias_act_bwd with G out of the GEMM epilogue (xgemm_pre, then grad_pre_partial_sums) against
# HEAD's fused epilogue, both plans pinned to the H100 entry's tile (a --plan carries no tuning), paired;
# then the transformer GEMMs beside CLBlast and PyTorch in one run; then checks with the final entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt
stdbuf -oL -eL timeout 120 $B bench --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh --device nvidia:0 --repetitions 9 --min-time 0.01 \
  --plan .gpu/pin/new/kernels/gemm.plan --variant xgemm --baseline-plan .gpu/pin/old/kernels/gemm.plan --json $R/paired_bwd.json > $R/paired_bwd.log 2>&1
grep -v "checked .* of" $R/paired_bwd.log | tail -3
timeout 330 bash bench/side_by_side.sh $B $R/sbs python3 0.01 --batch bench/batches/transformer_gemm.batch > $R/sbs.log 2>&1
cat $R/sbs/side_by_side.md 2>/dev/null || tail -5 $R/sbs.log
for op in "gemm_bias_act_bwd --cases 20" "matmul --cases 24"; do
  timeout 60 $B check $op --device nvidia:0 > $R/check_${op%% *}.log 2>&1; tail -1 $R/check_${op%% *}.log
done
tar czf $OUT/r.tgz -C /tmp r
