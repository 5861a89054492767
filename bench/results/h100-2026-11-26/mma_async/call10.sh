# Call 10: FAST_COPY's chunk addresses as 32-bit chunk numbers (call 9's 64-bit pointers took the
# 8-warp tiles to 170 registers): registers, ptxprof times, the checks.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c10; mkdir -p $O
K=opencl/kernels
P=.gpu/plumbline
for w in "-DMWARPS=2 -DNWARPS=4" "-DMWARPS=2 -DNWARPS=2"; do
( cd $K && ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DMWG=128 -DNWG=128 -DKWG=32 $w -DASYNC=1 -DSTAGES=2 -cl-nv-verbose -I." 2>&1 | grep -E "Used|rror" ) | tee -a $O/kinfo.log; done
for d in "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 -DKWG=32 -DSTAGES=2" "-DMWG=128 -DNWG=128 -DMWARPS=1 -DNWARPS=4 -DKWG=16 -DSTAGES=4" "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=2 -DKWG=32 -DSTAGES=2" "-DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=2 -DKWG=16 -DSTAGES=4" "-DMWG=128 -DNWG=64 -DMWARPS=2 -DNWARPS=2 -DKWG=32 -DSTAGES=3"; do
  echo "== $d"
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_BF16 -DASYNC=1 $d" 4096 1024 3072 1 5 $O/k.ptx 2>&1 | tail -1
  .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "-I$K -DDTYPE_BF16 -DASYNC=1 $d" 4096 1024 1024 0 5 $O/k.ptx 2>&1 | tail -1
done
timeout 60 $P check matmul --device nvidia:0 --variant mma --cases 24 --seed 101 > $O/check.log 2>&1
for p in batch=0,m=128,k=96,n=64,ta=0,tb=0,dtype=f16 batch=2,m=64,k=100,n=96,ta=1,tb=1,dtype=bf16 batch=1,m=130,k=64,n=64,ta=1,tb=0,dtype=bf16 batch=3,m=200,k=200,n=96,ta=0,tb=0,dtype=bf16 batch=0,m=256,k=512,n=256,ta=1,tb=0,dtype=f16; do
  timeout 30 $P check matmul --variant mma --problem matmul:$p --values normal --device nvidia:0 >> $O/check.log 2>&1; done
grep -E "pass|FAIL|rror" $O/check.log
cd $OUT && tar czf r.tgz c10 && rm -rf c10
