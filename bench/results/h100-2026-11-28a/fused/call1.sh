# Call 1 (stop 52): wgmma_split_pairs's Z step and G's pass as one (xgemm_mma_grad_pairs: G and its pairs
# in the GEMM's epilogue, Z never in memory). Checks first (the widened condition's problems of
# ../../h100-2026-11-27h/pairs/next_call.sh among them), then by step, paired against the plan as it was
# (.gpu/kbase: HEAD fa0b7ac's opencl/kernels), and the 16-bit gelu backwards side by side twice.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/f1; mkdir -p $O
R=bench/results/h100-2026-11-28a/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
V="--variant wgmma_split_pairs"
for c in "m=1024,k=24,n=1024,act=gelu_tanh uniform" "m=1024,k=24,n=1024,act=gelu_tanh sparse" "m=1088,k=40,n=1024,act=gelu_erf edge" \
         "m=1030,k=64,n=1032,act=gelu_tanh sparse" "m=1057,k=40,n=1032,act=silu uniform" "m=1030,k=23,n=1088,act=gelu_erf edge" \
         "m=2049,k=1030,n=1096,act=gelu_tanh normal" "m=1024,k=23,n=1088,act=silu normal"; do
  set -- $c
  timeout 60 $P check gemm_bias_act_bwd $V --device nvidia:0 --problem gemm_bias_act_bwd:$1,dtype=bf16 --values $2 >> $O/check.log 2>&1 || echo "rc $? $1 $2" >> $O/check.log
done
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/fused.json --batch $R/bf16.batch > $O/steps.log 2>&1
echo "== fused by step (rc $?)"; python3 bench/steps.py /tmp/fused.json | tee -a $O/steps.txt
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --batch $R/bf16.batch --baseline-plan .gpu/kbase/gemm.plan > $O/paired.log 2>&1
echo "== paired (rc $?)"; grep -E "ratio|paired|FAIL|error" $O/paired.log | cut -c1-220
for i in 1 2; do
  timeout 75 bash bench/side_by_side.sh $P /tmp/sbs$i python3 0.01 --batch $R/gelu16.batch > /tmp/sbs$i.log 2>&1
  cp /tmp/sbs$i/side_by_side.md $O/sbs$i.md; grep gemm_bias $O/sbs$i.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
done
