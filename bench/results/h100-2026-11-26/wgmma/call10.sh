# Call 10: conv.plan's wgmma_gemm and wgmma_igemm checked, tuned on the 16-bit conv lines, then side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c10; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
for v in wgmma_gemm wgmma_igemm; do timeout 100 $P check conv2d --device nvidia:0 --variant $v --cases 16 --seed 21 2>&1 | tail -1 | sed "s/^/$v: /"; done | tee $O/check.log
S1="MWG=128 NWG=128 KWG=32 MWARPS=8 STAGES=2 WG_PENDING=0 PIXELS_M=0"; S2="MWG=128 NWG=64 KWG=16 MWARPS=8 STAGES=4 WG_PENDING=1 PIXELS_M=1"
S3="MWG=128 NWG=64 KWG=32 MWARPS=8 STAGES=3 WG_PENDING=1 PIXELS_M=1"; S4="MWG=64 NWG=128 KWG=32 MWARPS=4 STAGES=3 WG_PENDING=1 PIXELS_M=0"
timeout 250 $P tune conv2d --device nvidia:0 --variant wgmma_igemm --batch $R/wgmma/conv16.batch --budget 170 --start "$S1" --start "$S2" --start "$S3" --start "$S4" > $O/tune_igemm.log 2>&1
timeout 100 $P tune conv2d --device nvidia:0 --variant wgmma_gemm --batch $R/wgmma/conv16.batch --budget 50 --start "$S1" --start "$S2" --start "$S4" > $O/tune_gemm.log 2>&1
grep -h "^winner" $O/tune_*.log | cut -c1-250
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 180 bash bench/side_by_side.sh $P $O/conv python3 0.01 --batch $R/wgmma/conv16.batch > $O/conv.log 2>&1
grep "|" $O/conv/side_by_side.md
cd $OUT && tar czf r.tgz c10 && rm -rf c10
