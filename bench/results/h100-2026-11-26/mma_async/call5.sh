# Call 5: mma_igemm on ASYNC=1 with the pixels' places computed once (MMA_GATHER_AT): checks, then the
# 3x3 lines at a few async tiles beside the ring's entries (bench --define: tuned entries not used).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c5; mkdir -p $O
P=.gpu/plumbline
A="ASYNC=1,PREFETCH=1"
timeout 100 $P check conv2d --device nvidia:0 --variant mma_igemm --define $A,STAGES=2,PIXELS_M=1 --cases 16 --seed 41 > $O/check.log 2>&1
timeout 100 $P check conv2d --device nvidia:0 --variant mma_igemm --define $A,STAGES=3,PIXELS_M=0 --cases 16 --seed 42 >> $O/check.log 2>&1
for p in n=3,c=48,h=15,w=17,k=80,r=3,s=3,sh=2,sw=2,ph=1,pw=1,bias=1 n=2,c=64,h=14,w=14,k=64,r=3,s=3,ph=1,pw=1,g=4 n=2,c=12,h=9,w=9,k=32,r=3,s=3,ph=1,pw=1; do
  timeout 60 $P check conv2d --device nvidia:0 --variant mma_igemm --define $A,STAGES=2,PIXELS_M=1 --problem conv2d:$p,dtype=bf16 >> $O/check.log 2>&1; done
grep -E "pass|FAIL|rror" $O/check.log
B="$P bench --device nvidia:0 --variant mma_igemm --timing stream --repetitions 9 --min-time 0.01"
$B --batch $R/narrow.batch > $O/ring.log 2>&1
$B --batch $R/wide.batch >> $O/ring.log 2>&1
for d in "MWG=128,NWG=64,KWG=32,MWARPS=4,NWARPS=2,STAGES=2,PIXELS_M=1" "MWG=128,NWG=64,KWG=32,MWARPS=4,NWARPS=2,STAGES=2,PIXELS_M=0" "MWG=64,NWG=128,KWG=32,MWARPS=2,NWARPS=4,STAGES=2,PIXELS_M=0" "MWG=128,NWG=128,KWG=32,MWARPS=2,NWARPS=4,STAGES=2,PIXELS_M=1" "MWG=128,NWG=128,KWG=16,MWARPS=2,NWARPS=4,STAGES=4,PIXELS_M=1" "MWG=64,NWG=64,KWG=32,MWARPS=2,NWARPS=2,STAGES=4,PIXELS_M=0"; do
  echo "== $d" >> $O/async.log; $B --define $A,$d --batch $R/narrow.batch --batch $R/wide.batch >> $O/async.log 2>&1; done
grep -E "== |ms " $O/ring.log $O/async.log | awk '{print $1, $2}'
cd $OUT && tar czf r.tgz c5 && rm -rf c5
