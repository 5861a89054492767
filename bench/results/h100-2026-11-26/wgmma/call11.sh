# Call 11: wgmma_igemm's new class `few` (under 4096 output pixels: the 7x7 layer ran at 0.157 ms on the
# wide entry's 128 x 128 tiles in call 10, against mma_igemm's 0.113) tuned, both variants timed on it,
# then the 16-bit conv lines side by side again.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c11; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
timeout 150 $P tune conv2d --device nvidia:0 --variant wgmma_igemm --batch $R/wgmma/few.batch --budget 90 --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=1 PIXELS_M=0" --start "MWG=64 NWG=64 KWG=64 MWARPS=4 STAGES=2 WG_PENDING=0 PIXELS_M=0" --start "MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=1 PIXELS_M=1" --start "MWG=64 NWG=64 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=1 PIXELS_M=1" > $O/tune_few.log 2>&1
grep -h "^winner" $O/tune_*.log | cut -c1-250
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
for v in mma_igemm wgmma_igemm mma_igemm wgmma_igemm; do timeout 40 $P bench --device nvidia:0 --variant $v --timing stream --repetitions 9 --min-time 0.01 --batch $R/wgmma/few.batch 2>&1 | grep "^conv2d" | cut -c1-160; done | tee $O/few_bench.log
timeout 180 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/wgmma/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md
cd $OUT && tar czf r.tgz c11 && rm -rf c11
