# Call 4 (stop 49): conv2d_bwd_weight's new wgmma_gemm (1x1, stride 1, no padding, k c <= 65536): the
# GEMM over each image straight from NCHW, no packs. Checks, the small 1x1 layers side by side before it
# (the plan without it: before.plan), a tune, then side by side and by step.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/w4; mkdir -p $O
R=bench/results/h100-2026-11-27f/bwd_weight_medium
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for p in n=3,c=200,h=16,w=17,k=100,r=1,s=1,dtype=f16 n=5,c=130,h=16,w=16,k=300,r=1,s=1,bias=1,dtype=bf16 n=2,c=64,h=20,w=20,k=1024,r=1,s=1,dtype=bf16; do
  for v in edge normal; do
    timeout 60 $P check conv2d_bwd_weight --device nvidia:0 --problem conv2d_bwd_weight:$p --values $v >> $O/check.log 2>&1 || echo "rc $? $p $v" >> $O/check.log
  done
done
timeout 120 $P check conv2d_bwd_weight --device nvidia:0 --problem conv2d_bwd_weight:n=32,c=256,h=56,w=56,k=128,r=1,s=1,dtype=bf16 >> $O/check.log 2>&1 || echo "rc $? 56x56" >> $O/check.log
grep -E "pass|FAIL|rc " $O/check.log | cut -c1-220
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --batch $R/small1x1.batch --batch $R/medium16.batch --baseline-plan $R/before.plan > $O/paired.log 2>&1
grep -E "ratio|error|FAIL" $O/paired.log | cut -c1-250
timeout 200 $P tune conv2d_bwd_weight --device nvidia:0 --variant wgmma_gemm --batch $R/tune2.batch --budget 150 \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=0 PARTS=1" \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=0 PARTS=4" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PARTS=2" \
  --start "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=4 WG_PENDING=0 PARTS=2" > $O/tune.log 2>&1
echo "rc $?"
grep -E "^winner|best so far|invalid|wrong|entry|wrote|pairs" $O/tune.log | cut -c1-260
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 150 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/small1x1.batch --batch $R/medium16.batch > $O/sbs.log 2>&1
grep -ho "variant [a-z_0-9@]*" $O/sbs/*/ours.log | sort | uniq -c
cat $O/sbs/side_by_side.md 2>/dev/null | grep conv2d | cut -d'|' -f2,3,10
timeout 100 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch $R/small1x1.batch --batch $R/medium16.batch > $O/steps.log 2>&1
python3 bench/steps.py $O/steps.json | tee $O/steps.txt
