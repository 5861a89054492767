# Call 5: the pack's eight loads issued together and the weights' layout step in wr's order (stores
# coalesced): checked, steps timed, then the 16-bit conv lines (and the backward's) side by side again.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c5; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
(for d in f16 bf16; do for v in edge uniform; do
  for p in n=2,c=64,h=14,w=14,k=64,r=3,s=3,ph=1,pw=1 n=1,c=70,h=9,w=15,k=32,r=3,s=3,ph=1,pw=1 n=3,c=65,h=11,w=9,k=48,r=3,s=3,sh=2,sw=2,ph=1,pw=1,bias=1 n=2,c=130,h=5,w=5,k=64,r=3,s=3,ph=1,pw=1,g=2; do
    for var in wgmma_igemm mma_igemm; do timeout 30 $P check conv2d --device nvidia:0 --variant $var --problem conv2d:$p,dtype=$d --values $v 2>&1 | tail -1 | sed "s/^/$var $d $v $p: /"; done; done; done; done) > $O/check.log 2>&1
grep -c " pass " $O/check.log; grep -v " pass " $O/check.log | head
timeout 120 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/conv_steps.json --batch $R/mma_conv/conv16.batch > $O/conv_steps.log 2>&1
python3 - $O/conv_steps.json <<'PY' | tee $O/steps.txt
import json, sys
for b in json.load(open(sys.argv[1]))['benchmarks']:
    if b.get('run_type') != 'aggregate' or not b['name'].endswith('_median'): continue
    steps = {k[5:]: round(v, 4) for k, v in b.items() if k.startswith('step_')}
    print(b['name'].split('@')[0][:100], round(b['real_time'], 4), b.get('label', ''), steps)
PY
timeout 240 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/mma_conv/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz c5 && rm -rf c5
