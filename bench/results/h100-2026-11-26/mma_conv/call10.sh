# Call 10: mma_gemm with PIXELS_M (the 1x1 layer's 64 channels on N, its pixels on M, the plane read
# transposed): a tune from such starts, checks of every instance, then the layer side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c10; mkdir -p $O
P=.gpu/plumbline
L="conv2d:n=32,c=256,h=56,w=56,k=64,r=1,s=1,dtype=bf16"
S1="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=2 PIXELS_M=1"; S2="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=1 PIXELS_M=1"; S3="MWG=256 NWG=64 KWG=32 MWARPS=4 NWARPS=2 PREFETCH=1 PIXELS_M=1"
timeout 140 $P tune conv2d --device nvidia:0 --variant mma_gemm --problem $L --budget 90 --start "$S1" --start "$S2" --start "$S3" > $O/tune_gemm.log 2>&1
grep -E "^winner|\] MWG" $O/tune_gemm.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 90 $P check conv2d --device nvidia:0 --variant mma_gemm --cases 24 --seed 26 > $O/check.log 2>&1
for p in n=3,c=32,h=7,w=7,k=64,r=1,s=1 n=2,c=48,h=15,w=17,k=80,r=1,s=1,bias=1 n=2,c=64,h=14,w=14,k=64,r=1,s=1,g=4; do
  for d in bf16 f16; do timeout 60 $P check conv2d --device nvidia:0 --variant mma_gemm --problem conv2d:$p,dtype=$d --values normal >> $O/check.log 2>&1; done; done
grep -E "pass|FAIL" $O/check.log
timeout 120 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --problem $L > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c10 && rm -rf c10
