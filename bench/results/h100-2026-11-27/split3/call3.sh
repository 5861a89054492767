# Call 3: conv2d_weights_rsc a (output channel, channel) a work-item in every igemm variant, and
# wgmma_igemm_split's condition as attribute comparisons (call 2's tune drew no problem): checks,
# steps, wgmma_igemm_split tuned on the 7x7 layer, the 16-bit conv lines side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c3; mkdir -p $O
R=bench/results/h100-2026-11-27/split3
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
(for p in n=32,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1 n=3,c=130,h=9,w=11,k=96,r=3,s=3,sh=2,sw=2,ph=1,pw=1,bias=1 n=16,c=1024,h=7,w=7,k=256,r=1,s=3,pw=1,g=2,bias=1; do
  for v in uniform edge; do
    for d in wgmma_igemm_split:f16 wgmma_igemm_split:bf16 mma_igemm:f16 wgmma_igemm:bf16; do
      timeout 60 $P check conv2d --device nvidia:0 --variant ${d%:*} --problem conv2d:$p,dtype=${d#*:} --values $v 2>&1 | tail -1; done; done; done
 timeout 100 $P check conv2d --device nvidia:0 --variant wgmma_igemm_split --cases 8 --seed 11 2>&1 | tail -1) > $O/check.log 2>&1
grep -c " pass " $O/check.log; grep -v " pass " $O/check.log | head -20
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch $R/conv16.batch > $O/steps.log 2>&1
python3 - $O/steps.json <<'PY' | tee $O/steps.txt
import json, sys
for f in sys.argv[1:]:
  for b in json.load(open(f))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
timeout 230 $P tune conv2d --device nvidia:0 --variant wgmma_igemm_split --batch $R/conv7.batch --budget 170 \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=5" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=4" \
  --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 PIXELS_M=0 SPLITS=3" \
  --start "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=2" > $O/tune_conv7.log 2>&1
grep -h "best so far" $O/tune_*.log | cut -c1-250 | tail -5
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 150 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c3 && rm -rf c3
