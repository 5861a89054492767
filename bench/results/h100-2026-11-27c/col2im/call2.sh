# Call 2: col2im's gather a row group a work-item (sw neighbours, the same taps as their neighbours):
# checked, timed by step on the strided and stride-1 3x3 lines, the equivalent plain GEMMs timed,
# col2im tuned over its new classes, then both batches side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run2; mkdir -p $O
R=bench/results/h100-2026-11-27c/col2im
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P check conv2d_bwd_data --device nvidia:0 --variant col2im --cases 8 --seed 32 > $O/check_random.log 2>&1; tail -n 1 $O/check_random.log
(for p in n=2,c=40,h=13,w=11,k=24,r=3,s=3,sh=2,sw=2,ph=1,pw=1 n=3,c=64,h=15,w=9,k=30,r=3,s=5,sh=3,sw=2,ph=2,pw=1,dh=2,g=2 n=4,c=96,h=9,w=10,k=40,r=3,s=3,ph=1,pw=1; do
  for v in integers normal edge; do for d in f32 bf16; do
    timeout 40 $P check conv2d_bwd_data --device nvidia:0 --variant col2im --problem conv2d_bwd_data:$p,dtype=$d --values $v 2>&1 | tail -n 1; done; done; done) > $O/check_named.log 2>&1
grep -c " pass " $O/check_named.log; grep -v " pass " $O/check_named.log | head -5
timeout 90 $P bench --device nvidia:0 --variant col2im --timing launch --repetitions 3 --min-time 0.02 --verbose --batch $R/strided3x3.batch --batch $R/stride1_3x3.batch > $O/steps.log 2>&1
grep "_median" $O/steps.log | sed 's/@nvidia.*manual_time_median */ /; s/ms .*step_01/ms step_01/' | cut -c1-200
timeout 60 $P bench --device nvidia:0 --timing stream --repetitions 3 --min-time 0.02 --batch $R/gemm_equiv.batch > $O/gemm_equiv.log 2>&1
grep -h "matmul" $O/gemm_equiv.log | grep -v "^#" | cut -c1-120
timeout 170 $P tune conv2d_bwd_data --device nvidia:0 --variant col2im --batch $R/bwd3x3.batch --budget 150 \
  --start "MWG=128 NWG=64 KWG=16 MDIMC=16 NDIMC=16" --start "MWG=64 NWG=64 KWG=16 MDIMC=8 NDIMC=16" > $O/tune.log 2>&1
grep -h "^winner" $O/tune.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 200 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/strided3x3.batch --batch $R/stride1_3x3.batch > $O/sbs.log 2>&1
grep -h "|" $O/sbs/*/side_by_side.md $O/sbs/side_by_side.md 2>/dev/null | cut -d'|' -f2,3,4,10 | sort -u
tail -3 $O/sbs.log
rm -rf $O/sbs
