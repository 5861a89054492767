# Call 1 (stop 49): conv2d_bwd_weight's wgmma_igemm_split had no H100 entry for its class medium: the
# layers side by side at the plan's defaults, a tune of the class, then side by side at its entry.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/w1; mkdir -p $O
R=bench/results/h100-2026-11-27f/bwd_weight_medium
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
python3 -c "import torch; print(torch.__version__, torch.backends.cudnn.version())" | tee -a $O/gpu.log
timeout 150 bash bench/side_by_side.sh $P $O/before python3 0.01 --batch $R/medium16.batch > $O/before.log 2>&1
tail -12 $O/before/side_by_side.md 2>/dev/null || tail -5 $O/before.log
timeout 230 $P tune conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --batch $R/tune.batch --budget 170 \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=4" \
  --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=8" > $O/tune.log 2>&1
echo "rc $?"
grep -E "^winner|best so far|invalid|wrong|entry|wrote|pairs" $O/tune.log | cut -c1-260
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 150 bash bench/side_by_side.sh $P $O/after python3 0.01 --batch $R/medium16.batch > $O/after.log 2>&1
tail -12 $O/after/side_by_side.md 2>/dev/null || tail -5 $O/after.log
