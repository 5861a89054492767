# Call 2 (stop 50): call 1's winner (SPLITS=64) took the 56x56 layer from 0.133 to 0.112 ms but the
# 28x28 one from 0.095 to 0.107: conv.plan now gives layers of a long depth (n p q >= 65536) a class of
# their own, small_deep. Its tune (the 56x56 layer alone), then both layers side by side, three times.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t2; mkdir -p $O
R=bench/results/h100-2026-11-27g/small_tune
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 170 $P tune conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --batch $R/deep.batch --budget 130 \
  --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=64" \
  --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=4 WG_PENDING=0 PIXELS_M=0 SPLITS=64" \
  --start "MWG=64 NWG=192 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=64" > $O/tune.log 2>&1
echo "rc $?"
grep -E "^winner|best so far|invalid|wrong|entry|wrote|pairs" $O/tune.log | cut -c1-260
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
for i in 1 2 3; do
  timeout 100 bash bench/side_by_side.sh $P /tmp/sbs$i python3 0.01 --batch $R/small16.batch > $O/sbs$i.log 2>&1
  cp /tmp/sbs$i/side_by_side.md $O/sbs$i.md; grep conv2d $O/sbs$i.md | cut -d"|" -f2,3,10 | cut -c1-60,120-
done
