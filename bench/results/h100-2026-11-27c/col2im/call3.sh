# Call 3: col2im as one GEMM a group over every image (d_y packed [k][n][p*q]) and its gather without
# divisions a tap: checked, timed by step, tuned over its classes, then side by side (with the stem).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run3; mkdir -p $O
R=bench/results/h100-2026-11-27c/col2im
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P check conv2d_bwd_data --device nvidia:0 --variant col2im --cases 8 --seed 33 > $O/check_random.log 2>&1; tail -n 1 $O/check_random.log
(for p in n=2,c=40,h=13,w=11,k=24,r=3,s=3,sh=2,sw=2,ph=1,pw=1 n=3,c=64,h=15,w=9,k=30,r=3,s=5,sh=3,sw=2,ph=2,pw=1,dh=2,g=2 n=3,c=36,h=11,w=13,k=12,r=2,s=4,sh=2,sw=3,pw=2,dh=3,dw=2,g=3 n=8,c=512,h=14,w=14,k=512,r=3,s=3,sh=2,sw=2,ph=1,pw=1; do
  for v in integers normal edge; do for d in f32 bf16; do
    timeout 40 $P check conv2d_bwd_data --device nvidia:0 --variant col2im --problem conv2d_bwd_data:$p,dtype=$d --values $v 2>&1 | tail -n 1; done; done; done) > $O/check_named.log 2>&1
grep -c " pass " $O/check_named.log; grep -v " pass " $O/check_named.log | head -5
timeout 90 $P bench --device nvidia:0 --variant col2im --timing launch --repetitions 3 --min-time 0.02 --verbose --batch $R/bwd3x3.batch --batch $R/stem.batch > $O/steps.log 2>&1
grep "_median" $O/steps.log | sed 's/@nvidia.*manual_time_median */ /; s/ms .*step_01/ms step_01/' | cut -c1-220
timeout 200 $P tune conv2d_bwd_data --device nvidia:0 --variant col2im --batch $R/bwd3x3.batch --budget 170 \
  --start "MWG=128 NWG=64 KWG=16 MDIMC=16 NDIMC=16" --start "MWG=64 NWG=64 KWG=16 MDIMC=8 NDIMC=16" --start "MWG=128 NWG=128 KWG=16 MDIMC=16 NDIMC=16" > $O/tune.log 2>&1
grep -h "^winner" $O/tune.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 200 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/bwd3x3.batch --batch $R/stem.batch > $O/sbs.log 2>&1
cat $O/sbs/side_by_side.md | cut -c1-400
rm -rf $O/sbs
