# Call 1: the tensor-core convolutions (mma_gemm, mma_igemm) and the linear backward (mma_linear):
# registers, checks, the 16-bit lines at the plan's defaults, a tune of each, then side by side.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c1; mkdir -p $O
P=.gpu/plumbline
K=opencl/kernels
for f in "conv_igemm_mma.cl conv2d_igemm_mma_bias" "conv_gemm_mma.cl conv2d_gemm_mma"; do set -- $f
  ( cd $K && ../../.gpu/kinfo/kinfo $1 $2 "-DDTYPE_BF16 -DMWG=64 -DNWG=128 -DKWG=32 -DMWARPS=2 -DNWARPS=4 -DPREFETCH=1 -cl-nv-verbose -I." | grep -E "Used|limit" ) >> $O/kinfo.log 2>&1; done
cat $O/kinfo.log
for v in mma_igemm mma_gemm; do timeout 120 $P check conv2d --device nvidia:0 --variant $v --cases 24 --seed 21 >> $O/check.log 2>&1; done
timeout 90 $P check gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --cases 24 --seed 21 >> $O/check.log 2>&1
cat $O/check.log
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.01 --batch $R/conv16.batch > $O/bench_defaults.log 2>&1
grep -E "conv2d:|gemm_bias" $O/bench_defaults.log
timeout 170 $P tune conv2d --device nvidia:0 --variant mma_igemm --batch $R/conv16.batch --budget 150 > $O/tune_igemm.log 2>&1
timeout 70 $P tune conv2d --device nvidia:0 --variant mma_gemm --batch $R/conv16.batch --budget 50 > $O/tune_gemm.log 2>&1
timeout 70 $P tune gemm_bias_act_bwd --device nvidia:0 --variant mma_linear --batch $R/conv16.batch --budget 50 > $O/tune_linear.log 2>&1
tail -3 $O/tune_*.log
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
cd $OUT && tar czf r.tgz c1 && rm -rf c1
