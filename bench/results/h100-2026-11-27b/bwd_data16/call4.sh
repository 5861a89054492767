# Call 4: conv2d_bwd_data's 1x1 tensor-core GEMMs (wgmma_gemm, mma_gemm) checked and wgmma_gemm tuned;
# wgmma_igemm checked again with the coalesced turned-filter step; the 16-bit lines side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run4; mkdir -p $O
R=bench/results/h100-2026-11-27b/bwd_data16
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for v in wgmma_gemm mma_gemm wgmma_igemm wgmma_igemm_split; do timeout 60 $P check conv2d_bwd_data --device nvidia:0 --variant $v --cases 8 --seed 21 > $O/check_$v.log 2>&1; echo "$v: $(tail -n 1 $O/check_$v.log)"; done
(for p in n=8,c=64,h=56,w=56,k=256,r=1,s=1 n=3,c=96,h=9,w=11,k=130,r=1,s=1,g=2; do for v in uniform edge; do for d in f16 bf16; do for var in wgmma_gemm mma_gemm; do
  timeout 40 $P check conv2d_bwd_data --device nvidia:0 --variant $var --problem conv2d_bwd_data:$p,dtype=$d --values $v 2>&1 | tail -n 1; done; done; done; done) > $O/check_named.log 2>&1
grep -c " pass " $O/check_named.log; grep -v " pass " $O/check_named.log | head -5
timeout 130 $P tune conv2d_bwd_data --device nvidia:0 --variant wgmma_gemm --batch $R/bwd1x1.batch --budget 100 \
  --start "MWG=128 NWG=64 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 PIXELS_M=1" \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0" > $O/tune.log 2>&1
grep -h "^winner" $O/tune.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 170 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/bwd16.batch --batch $R/bwd1x1.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,10
rm -f $O/sbs/*.log
cd $OUT && tar czf r.tgz run4
