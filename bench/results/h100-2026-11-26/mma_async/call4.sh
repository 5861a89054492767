# Call 4: the convolutions on ASYNC=1 (mma_igemm gathers its chunks through MMA_CHUNK_B/A, mma_gemm
# plain): checks of both variants, boundary problems, then both tuned on stop 40's conv16 lines.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c4; mkdir -p $O
P=.gpu/plumbline
( cd opencl/kernels && ../../.gpu/kinfo/kinfo conv_igemm_mma.cl conv2d_igemm_mma "-DDTYPE_BF16 -DMWG=128 -DNWG=64 -DKWG=32 -DMWARPS=4 -DNWARPS=2 -DASYNC=1 -DSTAGES=2 -DPIXELS_M=1 -cl-nv-verbose -I." | grep -E "Used|limit|rror" ) > $O/kinfo.log 2>&1
cat $O/kinfo.log
for v in mma_igemm mma_gemm; do timeout 100 $P check conv2d --device nvidia:0 --variant $v --cases 24 --seed 31 >> $O/check.log 2>&1; done
for p in n=4,c=64,h=7,w=7,k=64,r=3,s=3,ph=1,pw=1 n=3,c=48,h=15,w=17,k=80,r=3,s=3,sh=2,sw=2,ph=1,pw=1,bias=1 n=2,c=64,h=14,w=14,k=64,r=3,s=3,ph=1,pw=1,g=4 n=2,c=12,h=9,w=9,k=32,r=3,s=3,ph=1,pw=1; do
  for d in bf16 f16; do timeout 60 $P check conv2d --device nvidia:0 --variant mma_igemm --problem conv2d:$p,dtype=$d >> $O/check.log 2>&1; done; done
timeout 60 $P check conv2d --device nvidia:0 --variant mma_gemm --problem conv2d:n=3,c=40,h=9,w=11,k=72,r=1,s=1,bias=1,dtype=bf16 >> $O/check.log 2>&1
grep -E "pass|FAIL|rror" $O/check.log
S1="MWG=128 NWG=64 KWG=32 MWARPS=4 NWARPS=2 STAGES=2"; S2="MWG=64 NWG=64 KWG=32 MWARPS=2 NWARPS=2 STAGES=4"; S3="MWG=128 NWG=128 KWG=32 MWARPS=2 NWARPS=4 STAGES=2"
timeout 120 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/narrow.batch --budget 80 --start "$S1 PIXELS_M=1" --start "$S2 PIXELS_M=0" --start "$S3 PIXELS_M=1" > $O/tune_igemm_narrow.log 2>&1
timeout 120 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/wide.batch --budget 80 --start "$S1 PIXELS_M=0" --start "$S2 PIXELS_M=0" --start "$S3 PIXELS_M=0" > $O/tune_igemm_wide.log 2>&1
timeout 90 $P tune conv2d --device nvidia:0 --variant mma_gemm --problem conv2d:n=32,c=256,h=56,w=56,k=64,r=1,s=1,dtype=bf16 --budget 60 --start "$S2 PIXELS_M=0" --start "$S1 PIXELS_M=1" > $O/tune_gemm.log 2>&1
grep -h "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c4 && rm -rf c4
