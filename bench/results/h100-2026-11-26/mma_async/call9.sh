# Call 9: plain operands' inside slabs copied from chunk addresses made once (FAST_COPY): registers,
# ptxprof times, checks of every ASYNC=1 variant, then their classes tuned again from their entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c9; mkdir -p $O
K=opencl/kernels; R=bench/results/h100-2026-11-26/mma_conv; G=bench/results/h100-2026-11-26/mma
P=.gpu/plumbline
( cd $K && ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -DASYNC=1 -DSTAGES=2 -cl-nv-verbose -I." 2>&1 | grep -E "Used|rror" ) | tee $O/kinfo.log
for d in "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=32 -DSTAGES=2" "-DMWG=128 -DNWG=128 -DMWARPS=1 -DNWARPS=4 -DKWG=16 -DSTAGES=4" "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=2 -DKWG=32 -DSTAGES=2" "-DMWG=256 -DNWG=128 -DMWARPS=4 -DNWARPS=2 -DKWG=16 -DSTAGES=3"; do
  echo "== $d"
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_BF16 -DASYNC=1 $d" 4096 1024 3072 1 5 $O/k.ptx 2>&1 | tail -1
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_BF16 -DASYNC=1 $d" 4096 1024 1024 0 5 $O/k.ptx 2>&1 | tail -1
done
timeout 60 $P check matmul --device nvidia:0 --variant mma --cases 24 --seed 91 > $O/check.log 2>&1
for p in batch=0,m=128,k=96,n=64,ta=0,tb=0,dtype=f16 batch=2,m=64,k=100,n=96,ta=1,tb=1,dtype=bf16 batch=0,m=70,k=130,n=66,ta=0,tb=1,dtype=f16 batch=1,m=130,k=64,n=64,ta=1,tb=0,dtype=bf16 batch=3,m=200,k=200,n=96,ta=0,tb=0,dtype=bf16 batch=0,m=256,k=512,n=256,ta=1,tb=0,dtype=f16; do
  timeout 30 $P check matmul --variant mma --problem matmul:$p --values normal --device nvidia:0 >> $O/check.log 2>&1; done
timeout 60 $P check gemm_bias_act --device nvidia:0 --variant mma --cases 16 --seed 92 >> $O/check.log 2>&1
timeout 60 $P check gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --cases 12 --seed 93 >> $O/check.log 2>&1
timeout 60 $P check conv2d --device nvidia:0 --variant mma_gemm --cases 16 --seed 94 >> $O/check.log 2>&1
grep -E "pass|FAIL|rror" $O/check.log
timeout 120 $P tune matmul --variant mma --device nvidia:0 --budget 90 --batch $G/matmul16.batch > $O/tune_matmul.log 2>&1
timeout 80 $P tune gemm_bias_act --device nvidia:0 --variant mma --batch $G/gemm16.batch --budget 50 > $O/tune_bias_act.log 2>&1
timeout 70 $P tune gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --batch $R/conv16.batch --budget 40 > $O/tune_linear.log 2>&1
timeout 70 $P tune conv2d --device nvidia:0 --variant mma_gemm --problem conv2d:n=32,c=256,h=56,w=56,k=64,r=1,s=1,dtype=bf16 --budget 40 > $O/tune_gemm.log 2>&1
grep -h "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c9 && rm -rf c9
