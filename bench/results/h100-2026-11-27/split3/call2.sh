# Call 2: conv.plan's wgmma_igemm_split (the depth split for few output pixels, the weights through the
# NHWC pack) checked, its steps timed against mma_igemm's, tuned on the 7x7 layer; then the 16-bit conv
# lines side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c2; mkdir -p $O
R=bench/results/h100-2026-11-27/split3
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
(for p in n=32,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1 n=8,c=256,h=14,w=14,k=256,r=3,s=3,ph=1,pw=1,bias=1 n=3,c=130,h=9,w=11,k=96,r=3,s=3,sh=2,sw=2,ph=1,pw=1 n=16,c=1024,h=7,w=7,k=256,r=1,s=3,pw=1,g=2,bias=1; do
  for v in uniform normal edge integers; do
    for d in f16 bf16; do
      timeout 60 $P check conv2d --device nvidia:0 --variant wgmma_igemm_split --problem conv2d:$p,dtype=$d --values $v 2>&1 | tail -1; done; done; done) > $O/check.log 2>&1
grep -c " pass " $O/check.log; grep -v " pass " $O/check.log | head -20
for v in wgmma_igemm_split mma_igemm; do timeout 60 $P bench --device nvidia:0 --variant $v --timing launch --repetitions 5 --min-time 0.05 --json $O/steps_$v.json --batch $R/conv7.batch > $O/steps_$v.log 2>&1; done
python3 - $O/steps_*.json <<'PY' | tee $O/steps.txt
import json, sys
for f in sys.argv[1:]:
  for b in json.load(open(f))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
timeout 230 $P tune conv2d --device nvidia:0 --variant wgmma_igemm_split --batch $R/conv7.batch --budget 170 \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=2" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=4" \
  --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 PIXELS_M=0 SPLITS=3" \
  --start "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=2" > $O/tune_conv7.log 2>&1
grep -h "^winner\|best so far" $O/tune_*.log | cut -c1-250 | tail -5
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 150 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c2 && rm -rf c2
