# Call 5: the fused epilogue with d_y's tile and the bias's columns staged in local memory first
# (16-byte loads all in flight; calls 1-4 loaded d_y beside each accumulator pair, each load waited
# for in turn at one work-group a multiprocessor: ptxas 129-134 registers). Paired against before.plan:
# gemm.plan's (slope called) and fused_inline.plan's (slope inlined); ptxas; the steps.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=$PATH:/usr/local/cuda/bin
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc5
O=$OUT/c5; mkdir -p $O
R=bench/results/h100-2026-11-27e/fused
K=opencl/kernels
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
D="-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=8 -DNWARPS=1 -DASYNC=1 -DSTAGES=3 -DWGMMA=1 -DWG_PENDING=0 -DSTAGED=1 -DG_PARTS=13"
for c in 0 1; do
  timeout 60 .gpu/ptxprof $K/xgemm_mma_backward_split.cl none "$D -DACT_CALL=$c" 1 1 1 0 1 $O/fused$c.ptx > /dev/null 2>&1
  ptxas -arch=sm_90a -v $O/fused$c.ptx -o /dev/null 2>&1 | grep -A2 "for xgemm_mma_grad_split" | sed "s/^/ACT_CALL=$c /" >> $O/ptxas.log
done
cat $O/ptxas.log; rm -f $O/*.ptx
grep gelu $R/bwd16.batch > /tmp/gelu_bwd.batch
timeout 120 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch /tmp/gelu_bwd.batch --baseline-plan $R/before.plan > $O/paired_call.log 2>&1
grep -E "ratio|error|FAIL" $O/paired_call.log | cut -c1-250
timeout 120 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch /tmp/gelu_bwd.batch --plan $R/fused_inline.plan --baseline-plan $R/before.plan > $O/paired_inline.log 2>&1
grep -E "ratio|error|FAIL" $O/paired_inline.log | cut -c1-250
timeout 100 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch /tmp/gelu_bwd.batch > $O/steps.log 2>&1
python3 - $O/steps.json <<'PY' | tee $O/steps.txt
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
