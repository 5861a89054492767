# Call 1 (stop 48): conv2d's wgmma_igemm entries (narrow, wide) were tuned before 48 KiB tiles were in
# the space (stop 47): a tune from the 48 KiB candidates, the session's last device time.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t1; mkdir -p $O
R=bench/results/h100-2026-11-27e/conv_tune
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 170 .gpu/plumbline tune conv2d --device nvidia:0 --variant wgmma_igemm --batch $R/tune.batch --budget 110 \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=4 WG_PENDING=0 PIXELS_M=1" --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=1" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0" > $O/tune.log 2>&1
echo "rc $?"
grep -E "^winner|best so far|invalid|wrong|entry|wrote|pairs" $O/tune.log | cut -c1-260
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
