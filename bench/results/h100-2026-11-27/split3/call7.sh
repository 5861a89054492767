# Call 7: wgmma_split3's Z = A @ B on f16's own instruction (its step's define MMA_OPERANDS_BF16=0, a
# program of its own) instead of four products of bf16 parts: checks, steps, the backward's lines side
# by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c7; mkdir -p $O
R=bench/results/h100-2026-11-27/split3
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
(for p in m=1024,k=256,n=1024,act=gelu_tanh m=1100,k=100,n=1030,act=relu m=1024,k=24,n=1024,act=gelu_erf m=2048,k=1000,n=1026,act=silu; do
  for v in uniform normal edge integers; do
    timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split3 --problem gemm_bias_act_bwd:$p,dtype=f16 --values $v 2>&1 | tail -1; done; done
 timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split3 --cases 8 --seed 23 2>&1 | tail -1
 timeout 100 $P check gemm_bias_act_bwd --device nvidia:0 --variant wgmma_split3 --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=f16 --values uniform 2>&1 | tail -1) > $O/check.log 2>&1
grep -c " pass " $O/check.log; grep -v " pass " $O/check.log | head -20
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch $R/split3.batch > $O/steps.log 2>&1
python3 - $O/steps.json <<'PY' | tee $O/steps.txt
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
timeout 120 bash bench/side_by_side.sh $P $O/bwd python3 0.01 --batch $R/bwd16.batch > $O/bwd.log 2>&1
grep "|" $O/bwd/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c7 && rm -rf c7
