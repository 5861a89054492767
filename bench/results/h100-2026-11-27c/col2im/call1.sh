# Call 1: conv2d_bwd_data's col2im on strided 3x3 layers of many channels: checked, timed beside igemm
# (and on the stride-1 layers through a plan copy whose `when` lets it serve them), tuned, side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run1; mkdir -p $O
R=bench/results/h100-2026-11-27c/col2im
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P check conv2d_bwd_data --device nvidia:0 --variant col2im --cases 8 --seed 31 > $O/check_random.log 2>&1; tail -n 1 $O/check_random.log
(for p in n=2,c=40,h=13,w=11,k=24,r=3,s=3,sh=2,sw=2,ph=1,pw=1 n=3,c=64,h=15,w=9,k=30,r=3,s=5,sh=3,sw=2,ph=2,pw=1,dh=2,g=2 n=8,c=512,h=14,w=14,k=512,r=3,s=3,sh=2,sw=2,ph=1,pw=1; do
  for v in integers uniform normal edge; do for d in f32 bf16; do
    timeout 40 $P check conv2d_bwd_data --device nvidia:0 --variant col2im --problem conv2d_bwd_data:$p,dtype=$d --values $v 2>&1 | tail -n 1; done; done; done) > $O/check_named.log 2>&1
grep -c " pass " $O/check_named.log; grep -v " pass " $O/check_named.log | head -5
for v in igemm col2im; do timeout 60 $P bench --device nvidia:0 --variant $v --timing stream --repetitions 5 --min-time 0.02 --batch $R/strided3x3.batch > $O/bench_$v.log 2>&1; done
grep -h "conv2d" $O/bench_*.log | grep -v "^#" | cut -c1-150
cp -r opencl/kernels /tmp/k1 && sed -i 's/(c < 16 \* g || sh >= 2 \&\& r \* s > 1)/(c < 16 * g || r * s > 1)/' /tmp/k1/conv.plan && grep -c "|| r \* s > 1)" /tmp/k1/conv.plan
PLUMBLINE_KERNEL_DIR=/tmp/k1 timeout 80 $P bench --device nvidia:0 --variant col2im --timing stream --repetitions 5 --min-time 0.02 --batch $R/stride1_3x3.batch > $O/bench_s1_col2im.log 2>&1
timeout 60 $P bench --device nvidia:0 --variant igemm --timing stream --repetitions 5 --min-time 0.02 --batch $R/stride1_3x3.batch > $O/bench_s1_igemm.log 2>&1
grep -h "conv2d" $O/bench_s1_*.log | grep -v "^#" | cut -c1-150
timeout 200 $P tune conv2d_bwd_data --device nvidia:0 --variant col2im --batch $R/strided3x3.batch --budget 170 \
  --start "MWG=128 NWG=64 KWG=16 MDIMC=16 NDIMC=8" --start "MWG=128 NWG=128 KWG=16 MDIMC=16 NDIMC=16" > $O/tune.log 2>&1
grep -h "best so far\|wrote\|winner" $O/tune.log | cut -c1-220 | tail -8
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 120 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/strided3x3.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,10
rm -f $O/sbs/*.log
