# Call 11: call 10's 1x1 winner was a 64 x 64 tile of 2 x 2 warps (4 warps: several work-groups a
# multiprocessor), which no search of the 3x3 classes or of stop 39's GEMM classes had started from:
# retunes from such small tiles, the GEMMs' checks.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c11; mkdir -p $O
P=.gpu/plumbline
G=bench/results/h100-2026-11-26/mma/gemm16.batch
T1="MWG=64 NWG=64 KWG=32 MWARPS=2 NWARPS=2 PREFETCH=2"; T2="MWG=128 NWG=64 KWG=32 MWARPS=2 NWARPS=2 PREFETCH=2"; T3="MWG=64 NWG=128 KWG=32 MWARPS=2 NWARPS=2 PREFETCH=2"
timeout 110 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/narrow.batch --budget 60 --start "$T1 PIXELS_M=0" --start "$T1 PIXELS_M=1" --start "$T2 PIXELS_M=1" > $O/tune_igemm_narrow.log 2>&1
timeout 130 $P tune matmul --device nvidia:0 --variant mma --batch $G --budget 90 --start "$T1" --start "$T2" --start "$T3" > $O/tune_matmul.log 2>&1
timeout 110 $P tune gemm_bias_act --device nvidia:0 --variant mma --batch $G --budget 60 --start "$T1" --start "$T2" --start "$T3" > $O/tune_gba.log 2>&1
grep -E "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
for op in matmul gemm_bias_act; do timeout 60 $P check $op --device nvidia:0 --variant mma --cases 24 --seed 27 >> $O/check.log 2>&1; done
timeout 60 $P check conv2d --device nvidia:0 --variant mma_igemm --cases 16 --seed 27 >> $O/check.log 2>&1
grep -E "pass|FAIL" $O/check.log
cd $OUT && tar czf r.tgz c11 && rm -rf c11
