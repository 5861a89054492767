# Call 4 (experiment): the conv GEMMs as plain matmuls through the mma core at fixed tiles
# (core_tiles.plan), beside the convolutions themselves: is the time the core's at M = 64, or the gather's?
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/mma_conv
O=$OUT/c4; mkdir -p $O
P=.gpu/plumbline
B="--device nvidia:0 --timing stream --repetitions 5 --min-time 0.01"
for v in n64x128 n64x256 w128x64 w256x64 l128x128; do
  timeout 60 $P bench $B --plan $R/core_tiles.plan --variant $v --problem matmul:m=64,k=576,n=100352,tb=1,dtype=bf16 --problem matmul:m=100352,k=576,n=64,tb=1,dtype=bf16 --problem matmul:m=128,k=1152,n=25088,tb=1,dtype=bf16 --problem matmul:m=4096,k=1024,n=1024,tb=1,dtype=bf16 > $O/core_$v.log 2>&1
  grep "@nvidia" $O/core_$v.log | sed "s/^/$v /"; done
timeout 60 $P bench $B --batch $R/conv16.batch --filter conv2d > $O/conv.log 2>&1
grep "@nvidia" $O/conv.log
cd $OUT && tar czf r.tgz c4 && rm -rf c4
