# Call 3: by step (--timing launch) for relu, silu and gelu_tanh at the bf16 gelu backward's shape, the
# fused epilogue (ACT_CALL=1, gemm.plan as committed) and the plan before (before.plan): whether the
# slope's arithmetic is what the G step (before) and the fused epilogue spend.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc3
O=$OUT/c3; mkdir -p $O
R=bench/results/h100-2026-11-27e/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 120 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps_fused.json --batch $R/acts.batch > $O/steps_fused.log 2>&1
timeout 120 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps_before.json --plan $R/before.plan --batch $R/acts.batch > $O/steps_before.log 2>&1
for j in $O/steps_fused.json $O/steps_before.json; do echo "== $j"; python3 - $j <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
done 2>&1 | tee $O/steps.txt
