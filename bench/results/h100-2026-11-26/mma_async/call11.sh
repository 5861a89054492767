# Call 11: the four ASYNC=1 variants tuned again at call 10's kernel, from 4-warp tiles as well (call 10:
# 128 x 128 x 32 of 2 x 2 warps the fastest through ptxprof).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c11; mkdir -p $O
R=bench/results/h100-2026-11-26/mma_conv; G=bench/results/h100-2026-11-26/mma
P=.gpu/plumbline
S1="MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=2 STAGES=2"; S2="MWG=128 NWG=128 KWG=16 MWARPS=1 NWARPS=4 STAGES=4"; S3="MWG=128 NWG=64 KWG=32 MWARPS=2 NWARPS=2 STAGES=3"
timeout 140 $P tune matmul --variant mma --device nvidia:0 --budget 80 --batch $G/matmul16.batch --start "$S1" --start "$S2" --start "$S3" > $O/tune_matmul.log 2>&1
timeout 120 $P tune gemm_bias_act --device nvidia:0 --variant mma --batch $G/gemm16.batch --budget 55 --start "$S1" --start "$S2" > $O/tune_bias_act.log 2>&1
timeout 100 $P tune gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --batch $R/conv16.batch --budget 35 --start "$S1" --start "$S2" > $O/tune_linear.log 2>&1
timeout 100 $P tune conv2d --device nvidia:0 --variant mma_gemm --problem conv2d:n=32,c=256,h=56,w=56,k=64,r=1,s=1,dtype=bf16 --budget 35 --start "$S1 PIXELS_M=0" --start "MWG=64 NWG=128 KWG=32 MWARPS=2 NWARPS=4 STAGES=2 PIXELS_M=0" > $O/tune_gemm.log 2>&1
grep -h "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c11 && rm -rf c11
