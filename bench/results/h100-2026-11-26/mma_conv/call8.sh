# Call 8: a retune of mma_igemm's classes after the GEMM went over all images' pixels (fewer, fuller
# tiles: 512 channels at 7x7 slowed at call 5's entry), from smaller tiles too; checks; side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c8; mkdir -p $O
P=.gpu/plumbline
S1="MWG=64 NWG=64 KWG=32 MWARPS=2 NWARPS=2 PREFETCH=2 PIXELS_M=0"; S2="MWG=64 NWG=64 KWG=32 MWARPS=2 NWARPS=2 PREFETCH=2 PIXELS_M=1"; S3="MWG=128 NWG=64 KWG=32 MWARPS=2 NWARPS=2 PREFETCH=2 PIXELS_M=1"
timeout 170 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/wide.batch --budget 110 --start "$S1" --start "$S2" --start "$S3" > $O/tune_wide.log 2>&1
S4="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=2 PIXELS_M=1"; S5="MWG=256 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=2 PIXELS_M=1"
timeout 120 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/narrow.batch --budget 60 --start "$S4" --start "$S5" --start "$S3" > $O/tune_narrow.log 2>&1
grep -E "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 60 $P check conv2d --device nvidia:0 --variant mma_igemm --cases 24 --seed 25 > $O/check.log 2>&1
tail -1 $O/check.log
timeout 200 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/conv16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c8 && rm -rf c8
