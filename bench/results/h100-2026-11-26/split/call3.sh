# Call 3: where the time goes, step by step (launch timing: each step waited for), in the 16-bit conv
# lines and the gemm_bias_act_bwd lines.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c3; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
timeout 200 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/conv_steps.json --batch $R/mma_conv/conv16.batch > $O/conv_steps.log 2>&1
python3 - $O/conv_steps.json <<'PY' | tee $O/steps.txt
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
cd $OUT && tar czf r.tgz c3 && rm -rf c3
