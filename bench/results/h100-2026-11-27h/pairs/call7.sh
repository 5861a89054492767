# Call 7 (stop 51): xgemm_mma_halves now runs the slabs' loop twice, over each half (the second adding to
# the first's sums: keep_acc), the loop as xgemm_mma's. Calls 4-6: worked into the loop, 10% slower with 4%
# more instructions in it (ptxas: 123 registers against 116, no spills). The same checks and figures as call 4.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/p7; mkdir -p $O
R=bench/results/h100-2026-11-27h/pairs
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
cp -r opencl/kernels /tmp/kbase
python3 - <<'PY'
t = open('/tmp/kbase/gemm.plan').read()
s = t.index('variant wgmma_split_pairs'); e = t.index('variant wgmma_split ', s)
open('/tmp/kbase/gemm.plan', 'w').write(t[:s] + t[e:])
PY
V="--variant wgmma_split_pairs"
for c in "m=1024,k=24,n=1024,act=gelu_tanh uniform" "m=1024,k=24,n=1024,act=gelu_tanh sparse" "m=1088,k=40,n=1024,act=gelu_erf edge" \
         "m=2048,k=1030,n=1024,act=gelu_tanh sparse" "m=1024,k=23,n=1088,act=silu normal"; do
  set -- $c
  timeout 60 $P check gemm_bias_act_bwd $V --device nvidia:0 --problem gemm_bias_act_bwd:$1,dtype=bf16 --values $2 >> $O/check.log 2>&1 || echo "rc $? $1 $2" >> $O/check.log
done
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
for v in split_plain split_via_halves; do
  timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/d_$v.json --plan $R/diag_call4.plan --variant $v --batch $R/bf16.batch > /tmp/d_$v.log 2>&1
  echo "== $v (rc $?)"; python3 bench/steps.py /tmp/d_$v.json | tee -a $O/steps.txt
done
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/pairs.json --batch $R/bf16.batch > /tmp/pairs.log 2>&1
echo "== pairs (rc $?)"; python3 bench/steps.py /tmp/pairs.json | tee -a $O/steps.txt
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --batch $R/bf16.batch --baseline-plan /tmp/kbase/gemm.plan > $O/paired.log 2>&1
echo "== paired (rc $?)"; grep -E "ratio|paired|FAIL|error" $O/paired.log | cut -c1-220
timeout 75 bash bench/side_by_side.sh $P /tmp/sbs1 python3 0.01 --batch $R/gelu16.batch > /tmp/sbs1.log 2>&1
cp /tmp/sbs1/side_by_side.md $O/sbs1.md; grep gemm_bias $O/sbs1.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
