# Call 2: conv2d_bwd_data's stride-1 tensor-core variants (wgmma_igemm, mma_igemm) checked on the H100,
# the FP32 core's time on the same lines (before), wgmma_igemm tuned, then the lines side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run2; mkdir -p $O
R=bench/results/h100-2026-11-27b/bwd_data16
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for v in wgmma_igemm mma_igemm; do timeout 120 $P check conv2d_bwd_data --device nvidia:0 --variant $v --cases 16 --seed 11 > $O/check_$v.log 2>&1; tail -1 $O/check_$v.log; done
(for p in n=32,c=512,h=7,w=7,k=512,r=3,s=3,ph=1,pw=1 n=8,c=256,h=14,w=14,k=128,r=3,s=3,ph=1,pw=1 n=3,c=96,h=9,w=11,k=130,r=5,s=3,ph=2,pw=1,dh=2 n=4,c=128,h=12,w=12,k=256,r=1,s=1,g=2; do
  for v in uniform normal edge integers; do for d in f16 bf16; do for var in wgmma_igemm mma_igemm; do
    timeout 60 $P check conv2d_bwd_data --device nvidia:0 --variant $var --problem conv2d_bwd_data:$p,dtype=$d --values $v 2>&1 | tail -1; done; done; done; done) > $O/check_named.log 2>&1
grep -c " pass " $O/check_named.log; grep -v " pass " $O/check_named.log | head -10
timeout 100 $P bench --device nvidia:0 --variant igemm --repetitions 5 --min-time 0.02 --batch $R/bwd16_3x3.batch > $O/before_igemm.log 2>&1
timeout 60 $P bench --device nvidia:0 --variant gemm --repetitions 5 --min-time 0.02 --problem 'conv2d_bwd_data:n=32,c=64,h=56,w=56,k=256,r=1,s=1,dtype=bf16' > $O/before_gemm.log 2>&1
grep -h "conv2d" $O/before_*.log | grep -v "^#" | cut -c1-160
timeout 260 $P tune conv2d_bwd_data --device nvidia:0 --variant wgmma_igemm --batch $R/bwd16.batch --budget 220 \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=1 PIXELS_M=1" \
  --start "MWG=128 NWG=128 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 PIXELS_M=0" \
  --start "MWG=128 NWG=64 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 PIXELS_M=0" > $O/tune.log 2>&1
grep -h "^winner\|wrote\|conv2d_bwd_data |" $O/tune.log | cut -c1-250 | tail -8
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 60 $P bench --device nvidia:0 --variant mma_igemm --repetitions 5 --min-time 0.02 --batch $R/bwd16.batch > $O/after_mma_igemm.log 2>&1
grep -h "conv2d" $O/after_mma_igemm.log | grep -v "^#" | cut -c1-160
timeout 150 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/bwd16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,10
cd $OUT && tar czf r.tgz run2
