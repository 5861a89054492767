# Call 1: ASYNC=1 (cp.async + ldmatrix) built, checked, timed against the ring; then matmul's mma tuned.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
D=bench/results/h100-2026-11-26/mma_async; O=$OUT/c1; mkdir -p $O
B=.gpu/plumbline
( cd opencl/kernels && for d in "-DASYNC=1 -DSTAGES=2 -DKWG=32" "-DASYNC=1 -DSTAGES=4 -DKWG=16" "-DASYNC=0 -DPREFETCH=2"; do echo "$d"; ../../.gpu/kinfo/kinfo xgemm_mma.cl xgemm_mma "-DDTYPE_BF16 -DMWG=128 -DNWG=128 -DMWARPS=2 -DNWARPS=4 $d -cl-nv-verbose -I." 2>&1 | grep -E "Used|limit|rror" | head -5; done ) > $O/kinfo.log 2>&1
cat $O/kinfo.log
timeout 120 $B check matmul --variant mma --cases 24 --seed 7 --device nvidia:0 > $O/check.log 2>&1
for p in batch=0,m=128,k=96,n=64,ta=0,tb=0,dtype=f16 batch=2,m=64,k=100,n=96,ta=1,tb=1,dtype=bf16 batch=0,m=70,k=130,n=66,ta=0,tb=1,dtype=f16 batch=1,m=130,k=64,n=64,ta=1,tb=0,dtype=bf16 batch=0,m=33,k=17,n=47,ta=1,tb=0,dtype=f16 batch=3,m=200,k=200,n=96,ta=0,tb=0,dtype=bf16; do
  timeout 30 $B check matmul --variant mma --problem matmul:$p --values normal --device nvidia:0 >> $O/check.log 2>&1; done
timeout 60 $B check matmul --variant mma --batch $D/../mma/matmul16.batch --values edge --device nvidia:0 >> $O/check.log 2>&1
cat $O/check.log | grep -v "^$" | tail -12
timeout 150 $B bench --device nvidia:0 --plan $D/ring_vs_async.plan --timing stream --repetitions 9 --min-time 0.01 --batch $D/../mma/matmul16.batch > $O/compare.log 2>&1
grep -E "matmul|rror" $O/compare.log | head -60
timeout 230 $B tune matmul --variant mma --device nvidia:0 --budget 160 --batch $D/../mma/matmul16.batch --json $O/tune.json \
  --start "MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 STAGES=2" --start "MWG=256 NWG=128 KWG=16 MWARPS=4 NWARPS=2 STAGES=3" > $O/tune.log 2>&1
tail -8 $O/tune.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c1 && rm -rf c1
