# Call 1 (stop 50): conv2d_bwd_weight's wgmma_igemm_split, class small (k c <= 16384): its H100 entry came
# from 5 candidates in 84 s. The steps by launch, a longer tune from the entry and wider tiles, then
# side by side at the new entry.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t1; mkdir -p $O
R=bench/results/h100-2026-11-27g/small_tune
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/steps.json --batch $R/small16.batch > $O/steps.log 2>&1
python3 bench/steps.py /tmp/steps.json | tee $O/steps.txt
timeout 330 $P tune conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --batch $R/small16.batch --budget 280 \
  --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=32" \
  --start "MWG=64 NWG=192 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=48" \
  --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=4 WG_PENDING=0 PIXELS_M=0 SPLITS=64" \
  --start "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=4 WG_PENDING=0 PIXELS_M=0 SPLITS=48" > $O/tune.log 2>&1
echo "rc $?"
grep -E "^winner|best so far|invalid|wrong|entry|wrote|pairs" $O/tune.log | cut -c1-260
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 120 bash bench/side_by_side.sh $P /tmp/after python3 0.01 --batch $R/small16.batch > $O/after.log 2>&1
cp /tmp/after/side_by_side.md $O/after.md; grep conv2d $O/after.md | cut -d"|" -f2,3,10
