# Call 2: deeper cp.async rings at two work-groups a multiprocessor (call 1: latency-bound, long_scoreboard
# and barrier stalls, L2 at 38%): STAGES up to 6 (xgemm_mma_async.h), 128 x 128 x 32 at 3 stages
# (exactly 48 KiB), through ptxprof; then plumbline itself at 48 KiB (does NVIDIA's OpenCL launch it?).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export PATH=$PATH:/usr/local/cuda/bin LD_LIBRARY_PATH=$PWD/.gpu
O=$OUT/c2; mkdir -p $O
K=opencl/kernels
cfg() { echo "-I$K -DDTYPE_BF16 -DMWG=$1 -DNWG=$2 -DKWG=$3 -DMWARPS=$(($1/16)) -DNWARPS=1 -DASYNC=1 -DSTAGES=$4 -DWGMMA=1 -DWG_PENDING=$5 -DSTAGED=1"; }
for c in "128 128 32 2 0" "128 128 32 3 0" "128 128 32 3 1" "128 128 16 4 0" "128 128 16 5 0" "128 128 16 6 0" "128 128 16 5 1" "128 128 16 6 1" \
         "64 128 32 4 0" "64 128 32 4 1" "64 256 16 4 0" "128 64 32 4 0" "64 128 64 2 0" "128 64 64 2 0" "64 64 64 3 0"; do
  set -- $c; n=w$1x$2x$3s$4p$5
  echo "== $n" >> $O/times.log
  timeout 60 .gpu/ptxprof $K/xgemm_mma.cl xgemm_mma "$(cfg $@)" 4096 1024 3072 1 3 $O/$n.ptx 8192 4096 1024 0 4096 8192 1024 1 4096 4096 4096 0 >> $O/times.log 2>&1
  ptxas -arch=sm_90a -v $O/$n.ptx -o /dev/null 2>&1 | grep -E "registers" | sed "s/^/$n /" >> $O/ptxas.log
  rm -f $O/$n.ptx
done
cat $O/ptxas.log
grep -E "==|problem|round 2|rror|fail" $O/times.log
# plumbline at 48 KiB exactly: matmul's wgmma with 128 x 128 x 32, 3 stages (no tuning entries)
mkdir -p /tmp/k1 /tmp/notune && cp -r $K/. /tmp/k1/
sed -i '0,/define MWG=128 NWG=128 KWG=32 MWARPS=8 NWARPS=1 ASYNC=1 STAGES=2 WGMMA=1/s//define MWG=128 NWG=128 KWG=32 MWARPS=8 NWARPS=1 ASYNC=1 STAGES=3 WGMMA=1/' /tmp/k1/gemm.plan
grep -n "STAGES=3 WGMMA" /tmp/k1/gemm.plan | head -2
PLUMBLINE_TUNING_DIR=/tmp/notune PLUMBLINE_KERNEL_DIR=/tmp/k1 PLUMBLINE_CACHE_DIR=/tmp/plc timeout 120 .gpu/plumbline bench --device nvidia:0 --variant wgmma \
  --problem "matmul:m=4096,k=1024,n=3072,tb=1,dtype=bf16" --problem "matmul:m=8192,k=4096,n=1024,dtype=bf16" --repetitions 5 --timing stream 2>&1 | tail -8
