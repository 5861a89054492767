# Call 5: mma_igemm with PIXELS_M (the transposed GEMM: pixels as M, the k/g channels as N): call 4's
# plain matmuls ran the conv's 64 x 576 x 100352 GEMM in 0.079 ms that way against 0.104 ms. Tunes of
# both classes from such starts, then the checks of every instance.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c5; mkdir -p $O
P=.gpu/plumbline
S1="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=1 PIXELS_M=1"; S2="MWG=256 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=1 PIXELS_M=1"; S3="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=2 PIXELS_M=1"
timeout 170 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/narrow.batch --budget 110 --start "$S1" --start "$S2" --start "$S3" > $O/tune_narrow.log 2>&1
S4="MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 PREFETCH=2 PIXELS_M=1"; S5="MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 PREFETCH=2 PIXELS_M=0"
timeout 170 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/wide.batch --budget 110 --start "$S1" --start "$S4" --start "$S5" > $O/tune_wide.log 2>&1
grep -E "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 100 $P check conv2d --device nvidia:0 --variant mma_igemm --cases 32 --seed 23 > $O/check.log 2>&1
tail -2 $O/check.log
cd $OUT && tar czf r.tgz c5 && rm -rf c5
