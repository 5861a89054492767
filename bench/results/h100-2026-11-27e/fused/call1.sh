# Call 1 (stop 48): the fused epilogue of the gelu backwards (xgemm_mma_grad_split: Z never stored, G's
# parts and d_bias's partial sums from the GEMM's tile). Checks on the H100 first (named problems in
# every value kind; matmul and gemm_bias_act for the staged store's split into STAGE_PAIRS and
# WRITE_STAGED), then the paired comparison against the plan before (before.plan), the steps, the side
# by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c1; mkdir -p $O
R=bench/results/h100-2026-11-27e/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for p in m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16 m=4096,k=1024,n=4096,act=gelu_tanh,dtype=f16; do
  for v in normal edge; do
    timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --problem gemm_bias_act_bwd:$p --values $v >> $O/check.log 2>&1 || echo "rc $? $p $v" >> $O/check.log
  done
done
for p in m=2048,k=1030,n=1026,act=silu,dtype=bf16 m=2048,k=1030,n=1026,act=silu,dtype=f16 \
         m=1030,k=64,n=1025,act=gelu_erf,dtype=bf16 m=1030,k=64,n=1025,act=sigmoid,dtype=f16 m=1100,k=256,n=2056,act=relu,dtype=bf16; do
  for v in uniform normal edge integers; do
    timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --problem gemm_bias_act_bwd:$p --values $v >> $O/check.log 2>&1 || echo "rc $? $p $v" >> $O/check.log
  done
done
timeout 150 $P check matmul --device nvidia:0 --cases 8 --seed 7 >> $O/check.log 2>&1 || echo "rc $? matmul" >> $O/check.log
timeout 100 $P check gemm_bias_act --device nvidia:0 --cases 6 --seed 7 >> $O/check.log 2>&1 || echo "rc $? gemm_bias_act" >> $O/check.log
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-200
grep gelu $R/bwd16.batch > /tmp/gelu_bwd.batch
timeout 150 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch /tmp/gelu_bwd.batch --baseline-plan $R/before.plan > $O/paired.log 2>&1
tail -6 $O/paired.log
timeout 150 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch /tmp/gelu_bwd.batch > $O/steps.log 2>&1
python3 - $O/steps.json <<'PY' | tee $O/steps.txt
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
timeout 200 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/bwd16.batch > $O/sbs.log 2>&1
cat $O/sbs/side_by_side.md; cp $O/sbs/side_by_side.md $O/side_by_side.md; rm -rf $O/sbs
