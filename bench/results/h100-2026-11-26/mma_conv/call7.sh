# Call 7: mma_igemm as one GEMM a group over all images' pixels (no partial tile at each image's end):
# registers, checks of every instance, then the convolution lines side by side with PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c7; mkdir -p $O
P=.gpu/plumbline
K=opencl/kernels
( cd $K && ../../.gpu/kinfo/kinfo conv_igemm_mma.cl conv2d_igemm_mma "-DDTYPE_BF16 -DMWG=128 -DNWG=64 -DKWG=32 -DMWARPS=4 -DNWARPS=2 -DPREFETCH=2 -DPIXELS_M=1 -cl-nv-verbose -I." | grep -E "Used|limit" ) > $O/kinfo.log 2>&1
timeout 120 $P check conv2d --device nvidia:0 --variant mma_igemm --cases 40 --seed 24 > $O/check.log 2>&1
for p in n=4,c=64,h=7,w=7,k=64,r=3,s=3,ph=1,pw=1 n=3,c=48,h=15,w=17,k=80,r=3,s=3,sh=2,sw=2,ph=1,pw=1,bias=1 n=2,c=64,h=14,w=14,k=64,r=3,s=3,ph=1,pw=1,g=4; do
  for d in bf16 f16; do timeout 60 $P check conv2d --device nvidia:0 --variant mma_igemm --problem conv2d:$p,dtype=$d >> $O/check.log 2>&1; done; done
grep -E "pass|FAIL" $O/check.log
timeout 300 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/conv16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c7 && rm -rf c7
