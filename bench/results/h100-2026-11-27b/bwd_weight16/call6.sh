# Call 6: wgmma_igemm_split of conv2d_bwd_weight tuned (call 5's tune ran from the wrong folder), then
# the lines side by side at its entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/run6; mkdir -p $O
R=bench/results/h100-2026-11-27b/bwd_weight16
P=.gpu/plumbline
timeout 130 $P tune conv2d_bwd_weight --device nvidia:0 --variant wgmma_igemm_split --batch $R/bwdw16.batch --budget 100 \
  --start "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=48" \
  --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=32" \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0 SPLITS=4" \
  --start "MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=0 PIXELS_M=0 SPLITS=2" > $O/tune.log 2>&1
grep -h "^winner" $O/tune.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 100 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/bwdw16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md | cut -d'|' -f2,3,10 | tee $O/side_by_side_printed.md
rm -f $O/sbs/*.log $O/sbs/*.json
cd $OUT && tar czf r.tgz run6
