# Call 5 (stop 52): call 4's joined step with the work-group's tile of d_y prefetched into L2 (one
# prefetch.global.L2 a 128-byte line) before the GEMM's loop, so that the epilogue's row-by-row loads wait
# for L2. The same checks, by step, paired against fa0b7ac's plan, side by side twice.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/f5; mkdir -p $O
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
timeout 60 $P check gemm_bias_act_bwd --variant wgmma_split --device nvidia:0 --problem gemm_bias_act_bwd:m=1024,k=24,n=1030,act=gelu_tanh,dtype=bf16 --values edge >> $O/check.log 2>&1 || echo "rc $? split" >> $O/check.log
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/fused.json --batch $R/bf16.batch > $O/steps.log 2>&1
echo "== fused by step (rc $?)"; python3 bench/steps.py /tmp/fused.json | tee -a $O/steps.txt
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --batch $R/bf16.batch --baseline-plan .gpu/kbase/gemm.plan > $O/paired.log 2>&1
echo "== paired (rc $?)"; grep -E "ratio|paired|FAIL|error" $O/paired.log | cut -c1-220
for i in 1 2; do
  timeout 75 bash bench/side_by_side.sh $P /tmp/sbs$i python3 0.01 --batch $R/gelu16.batch > /tmp/sbs$i.log 2>&1
  cp /tmp/sbs$i/side_by_side.md $O/sbs$i.md; grep gemm_bias $O/sbs$i.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
done
