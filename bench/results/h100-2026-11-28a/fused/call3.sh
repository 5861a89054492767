# Call 3 (stop 52): as call 2 (G row-major from the staged tile: the joined step 0.177 ms), with each
# round's d_y loaded for all of a work-item's rows at once before the round's staging, where call 2 loaded
# one row after the other. Checks, by step, paired; no side by side, no ACT_CALL (call 2: slower).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/f3; mkdir -p $O
R=bench/results/h100-2026-11-28a/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
V="--variant wgmma_split_pairs"
for c in "m=1088,k=40,n=1024,act=gelu_erf edge" \
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
