# Call 5: conv2d_bwd_weight's wgmma_igemm_split (the weight gradient as the forward with x's images and
# channels swapped) checked; the FP32 core's time (before); the lines side by side at the plan's
# defaults (SPLITS=16); then a short tune.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run5; mkdir -p $O
R=bench/results/h100-2026-11-27b/bwd_weight16
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P check conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --cases 8 --seed 23 > $O/check.log 2>&1; tail -n 1 $O/check.log
(for p in n=8,c=64,h=28,w=28,k=64,r=3,s=3,ph=1,pw=1 n=4,c=96,h=15,w=13,k=80,r=3,s=3,sh=2,sw=2,ph=1,pw=1,bias=1; do for v in uniform edge; do for d in f16 bf16; do
  timeout 40 $P check conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --problem conv2d_bwd_weight:$p,dtype=$d --values $v 2>&1 | tail -n 1; done; done; done) > $O/check_named.log 2>&1
grep -c " pass " $O/check_named.log; grep -v " pass " $O/check_named.log | head -5
timeout 60 $P bench --device nvidia:0 --variant igemm --repetitions 3 --min-time 0.02 --batch $R/bwdw16.batch > $O/before_igemm.log 2>&1
grep -h "@nvidia" $O/before_igemm.log | cut -c1-150
timeout 120 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/bwdw16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,10
rm -f $O/sbs/*.log
cd $OUT && tar czf r.tgz run5
timeout 80 $P tune conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --batch $R/bwdw16.batch --budget 60 \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=32" \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=16" > $O/tune.log 2>&1
grep -h "^winner" $O/tune.log | cut -c1-220
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
