# Call 3: conv2d_bwd_data's wgmma_igemm_split (the 7 x 7 layers' depth split over d_y) checked and tuned;
# then the 16-bit backward-data lines side by side at the hand-copied wgmma_igemm entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run3; mkdir -p $O
R=bench/results/h100-2026-11-27b/bwd_data16
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P check conv2d_bwd_data --device nvidia:0 --variant wgmma_igemm_split --cases 8 --seed 5 > $O/check_split.log 2>&1; tail -n 1 $O/check_split.log
(for p in n=8,c=256,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1 n=3,c=96,h=9,w=11,k=130,r=5,s=3,ph=2,pw=1,dh=2; do for v in uniform edge; do for d in f16 bf16; do
  timeout 40 $P check conv2d_bwd_data --device nvidia:0 --variant wgmma_igemm_split --problem conv2d_bwd_data:$p,dtype=$d --values $v 2>&1 | tail -n 1; done; done; done) > $O/check_named.log 2>&1
grep -c " pass " $O/check_named.log; grep -v " pass " $O/check_named.log | head -5
timeout 170 $P tune conv2d_bwd_data --device nvidia:0 --variant wgmma_igemm_split --batch $R/bwd7.batch --budget 120 \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=2" \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=4" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=4" > $O/tune.log 2>&1
grep -h "best so far\|wrote" $O/tune.log | cut -c1-200 | tail -4
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 170 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/bwd16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz run3
