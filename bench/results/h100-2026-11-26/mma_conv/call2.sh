# Call 2: mma_igemm over x laid out as NHWC (the call-1 form gathered NCHW x element by element):
# registers, checks, the conv lines, a tune of mma_igemm, then every 16-bit line of
# reduced_precision.batch side by side with PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c2; mkdir -p $O
P=.gpu/plumbline
K=opencl/kernels
( cd $K && ../../.gpu/kinfo/kinfo conv_igemm_mma.cl conv2d_igemm_mma "-DDTYPE_BF16 -DMWG=64 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -DPREFETCH=1 -cl-nv-verbose -I." | grep -E "Used|limit" ) > $O/kinfo.log 2>&1
cat $O/kinfo.log
timeout 150 $P check conv2d --device nvidia:0 --variant mma_igemm --cases 32 --seed 22 > $O/check.log 2>&1
for p in n=4,c=64,h=20,w=20,k=64,r=3,s=3,ph=1,pw=1 n=2,c=48,h=15,w=17,k=80,r=3,s=3,sh=2,sw=2,ph=1,pw=1,bias=1 n=2,c=64,h=14,w=14,k=64,r=3,s=3,ph=1,pw=1,g=4; do
  for d in bf16 f16; do timeout 60 $P check conv2d --device nvidia:0 --variant mma_igemm --problem conv2d:$p,dtype=$d >> $O/check.log 2>&1; done; done
grep -E "pass|FAIL" $O/check.log
timeout 60 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.01 --batch $R/conv16.batch > $O/bench.log 2>&1
grep -E "@nvidia" $O/bench.log
timeout 200 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/conv16.batch --budget 170 > $O/tune_igemm.log 2>&1
grep -E "^winner" $O/tune_igemm.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 170 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/sixteen.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c2 && rm -rf c2
