# Call 7: the main loop back to call 3's (one fragment buffer); its time again through ptxprof; then the
# tensor-core variants not yet tuned on ASYNC=1 (gemm_bias_act, mma_linear) and mma_igemm with both
# main loops (ASYNC=0,1) tuned.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c7; mkdir -p $O
K=opencl/kernels; R=bench/results/h100-2026-11-26/mma_conv; G=bench/results/h100-2026-11-26/mma
P=.gpu/plumbline
.gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_BF16 -DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=32 -DASYNC=1 -DSTAGES=2" 4096 1024 3072 1 5 $O/k.ptx 2>&1 | tail -1
timeout 60 $P check gemm_bias_act --device nvidia:0 --variant mma --cases 16 --seed 71 > $O/check.log 2>&1
timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --cases 12 --seed 72 >> $O/check.log 2>&1
grep -E "pass|FAIL|rror" $O/check.log
S="--start MWG=128,NWG=128,KWG=32,MWARPS=2,NWARPS=4,STAGES=2"
timeout 110 $P tune gemm_bias_act --device nvidia:0 --variant mma --batch $G/gemm16.batch --budget 80 --start "MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 STAGES=2" --start "MWG=128 NWG=128 KWG=16 MWARPS=1 NWARPS=4 STAGES=4" --start "MWG=256 NWG=128 KWG=16 MWARPS=4 NWARPS=2 STAGES=3" > $O/tune_bias_act.log 2>&1
timeout 90 $P tune gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --batch $R/conv16.batch --budget 60 --start "MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 STAGES=2 CHUNK=64" --start "MWG=128 NWG=128 KWG=16 MWARPS=1 NWARPS=4 STAGES=4 CHUNK=64" > $O/tune_linear.log 2>&1
E1="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 ASYNC=0 PREFETCH=2 STAGES=2 PIXELS_M=1"; E2="MWG=64 NWG=64 KWG=32 MWARPS=2 NWARPS=2 ASYNC=0 PREFETCH=2 STAGES=2 PIXELS_M=0"
A1="MWG=64 NWG=128 KWG=32 MWARPS=2 NWARPS=4 ASYNC=1 PREFETCH=1 STAGES=2 PIXELS_M=0"; A2="MWG=128 NWG=128 KWG=16 MWARPS=2 NWARPS=4 ASYNC=1 PREFETCH=1 STAGES=4 PIXELS_M=1"; A3="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 ASYNC=1 PREFETCH=1 STAGES=2 PIXELS_M=1"
timeout 120 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/narrow.batch --budget 80 --start "$E1" --start "$A1" --start "$A3" > $O/tune_igemm_narrow.log 2>&1
timeout 120 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/wide.batch --budget 80 --start "$E2" --start "$A1" --start "$A2" > $O/tune_igemm_wide.log 2>&1
grep -h "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c7 && rm -rf c7
