# Call 1 (stop 51): the copy-free split (gemm.plan's wgmma_split_pairs, the working tree, stop 50's
# pairs/candidate.patch applied) checked on the H100 (uniform, normal, edge, sparse values; sizes
# the variant takes and one it leaves to wgmma_split), paired against the plan without it, by step.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/p1; mkdir -p $O
R=bench/results/h100-2026-11-27h/pairs
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
# the baseline: the same kernels, gemm.plan without the new variant
cp -r opencl/kernels /tmp/kbase
python3 - <<'PY'
import re
t = open('/tmp/kbase/gemm.plan').read()
s = t.index('variant wgmma_split_pairs'); e = t.index('variant wgmma_split ', s)
open('/tmp/kbase/gemm.plan', 'w').write(t[:s] + t[e:])
PY
grep -c wgmma_split_pairs /tmp/kbase/gemm.plan
V="--variant wgmma_split_pairs"
for c in "m=1024,k=24,n=1024,act=gelu_tanh uniform" "m=1024,k=24,n=1024,act=gelu_tanh edge" "m=1024,k=24,n=1024,act=gelu_tanh sparse" \
         "m=1024,k=23,n=1088,act=silu normal" "m=1024,k=23,n=1088,act=silu sparse" "m=1088,k=40,n=1024,act=gelu_erf edge" \
         "m=1088,k=40,n=1024,act=gelu_erf sparse" "m=2048,k=1030,n=1024,act=relu normal" "m=2048,k=1030,n=1024,act=gelu_tanh sparse"; do
  set -- $c
  timeout 60 $P check gemm_bias_act_bwd $V --device nvidia:0 --problem gemm_bias_act_bwd:$1,dtype=bf16 --values $2 >> $O/check.log 2>&1 || echo "rc $? $1 $2" >> $O/check.log
done
for s in 1 2; do
  timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --problem gemm_bias_act_bwd:m=1030,k=64,n=1025,act=gelu_tanh,dtype=bf16 --values sparse --seed $s >> $O/check.log 2>&1 || echo "rc $? odd sparse $s" >> $O/check.log
done
grep -E "pass|FAIL|rc |variant" $O/check.log | cut -c1-200
timeout 150 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --batch $R/bf16.batch --baseline-plan /tmp/kbase/gemm.plan > $O/paired.log 2>&1
echo "== paired (rc $?)"; grep -vE "^\s*$" $O/paired.log | tail -15 | cut -c1-220
timeout 90 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch $R/bf16.batch > $O/steps.log 2>&1
echo "== steps"; python3 bench/steps.py $O/steps.json | tee $O/steps.txt
for i in 1 2; do
  timeout 80 bash bench/side_by_side.sh $P $O/sbs$i python3 0.01 --batch $R/gelu16.batch > $O/sbs$i.log 2>&1
  echo "== sbs $i"; grep gemm_bias $O/sbs$i/side_by_side.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
done
