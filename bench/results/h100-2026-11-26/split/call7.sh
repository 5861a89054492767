# Call 7: wgmma_split's split step is latency-bound (122 us whatever its access width): its row loop
# unrolled by 4, and CHUNK (rows a work-item) 64 against 16 and 32, each checked by bench first.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c7; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
for c in 64 16 32 64; do
  timeout 60 $P bench --device nvidia:0 --variant wgmma_split --define CHUNK=$c --timing launch --repetitions 5 --min-time 0.05 --json $O/steps_$c.json --batch $R/split/split.batch > $O/steps_$c.log 2>&1
  python3 - $O/steps_$c.json $c <<'PY'
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print('CHUNK', sys.argv[2], round(b['real_time'], 4), b.get('label', ''), steps)
PY
done | tee $O/steps.txt
for c in 64 16 32 64 16 32; do timeout 40 $P bench --device nvidia:0 --variant wgmma_split --define CHUNK=$c --timing stream --repetitions 9 --min-time 0.01 --batch $R/split/split.batch 2>&1 | grep "^gemm" | cut -c1-200 | sed "s/^/CHUNK=$c /"; done | tee $O/stream.txt
cd $OUT && tar czf r.tgz c7 && rm -rf c7
