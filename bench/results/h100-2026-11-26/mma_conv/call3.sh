# Call 3: a longer tune of the narrow class (k = 64 output channels) of mma_igemm and mma_gemm, from
# wide-N starts, then the convolution and backward lines side by side with PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c3; mkdir -p $O
P=.gpu/plumbline
S1="MWG=64 NWG=256 KWG=32 MWARPS=1 NWARPS=4 PREFETCH=1"; S2="MWG=64 NWG=256 KWG=16 MWARPS=2 NWARPS=4 PREFETCH=2"; S3="MWG=64 NWG=128 KWG=64 MWARPS=2 NWARPS=2 PREFETCH=1"
timeout 150 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/narrow.batch --budget 130 --start "$S1" --start "$S2" --start "$S3" > $O/tune_igemm_narrow.log 2>&1
timeout 80 $P tune conv2d --device nvidia:0 --variant mma_gemm --problem "conv2d:n=32,c=256,h=56,w=56,k=64,r=1,s=1,dtype=bf16" --budget 60 --start "$S1" --start "$S2" --start "$S3" > $O/tune_gemm_narrow.log 2>&1
grep -E "^winner" $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
timeout 340 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/conv16.batch > $O/sbs.log 2>&1
grep "|" $O/sbs/side_by_side.md
cd $OUT && tar czf r.tgz c3 && rm -rf c3
