# Call 7: where the gelu backwards' time goes now, by step (--timing launch: each step waited for), at
# the final entries; each problem checked first.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c7; mkdir -p $O
R=bench/results/h100-2026-11-27d/core
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
grep gelu $R/bwd16.batch > /tmp/gelu_bwd.batch
timeout 150 .gpu/plumbline bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch /tmp/gelu_bwd.batch > $O/steps.log 2>&1
tail -3 $O/steps.log
python3 - $O/steps.json <<'PY' | tee $O/steps.txt
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
