# Call 2 (stop 51): call 1 measured the copy-free split slower (0.603 against 0.4925 ms): its two GEMMs
# 0.21 ms each against 0.14, by a division a slab and operand (DEPTH_PARTS's part and slab from s). Now
# counted along (NEXT_SLAB, xgemm_mma_async.h). Checked again, paired, by step, side by side twice.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/p2; mkdir -p $O
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
for c in "m=1024,k=24,n=1024,act=gelu_tanh uniform" "m=1024,k=24,n=1024,act=gelu_tanh sparse" "m=1024,k=23,n=1088,act=silu normal" \
         "m=1088,k=40,n=1024,act=gelu_erf edge" "m=2048,k=1030,n=1024,act=gelu_tanh sparse" "m=2048,k=1030,n=1024,act=relu uniform"; do
  set -- $c
  timeout 60 $P check gemm_bias_act_bwd $V --device nvidia:0 --problem gemm_bias_act_bwd:$1,dtype=bf16 --values $2 >> $O/check.log 2>&1 || echo "rc $? $1 $2" >> $O/check.log
done
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
timeout 150 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --batch $R/bf16.batch --baseline-plan /tmp/kbase/gemm.plan > $O/paired.log 2>&1
echo "== paired (rc $?)"; grep -E "ratio|paired|FAIL|error" $O/paired.log | cut -c1-220
timeout 90 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch $R/bf16.batch > $O/steps.log 2>&1
echo "== steps"; python3 bench/steps.py $O/steps.json | tee $O/steps.txt
for i in 1 2; do
  timeout 80 bash bench/side_by_side.sh $P /tmp/sbs$i python3 0.01 --batch $R/gelu16.batch > $O/sbs$i.log 2>&1
  cp /tmp/sbs$i/side_by_side.md $O/sbs$i.md
  echo "== sbs $i"; grep gemm_bias $O/sbs$i.md | cut -d"|" -f2,3,10 | cut -c1-60,100-
done
