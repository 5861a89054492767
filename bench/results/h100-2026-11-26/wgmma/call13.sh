# Call 13 (named nvidia-h200 when no H100 came at first; it ran on an H100 80GB HBM3, driver 580.159.04, per nvidia-smi; the edge-value loop printed nothing within its 60 s timeouts): after the review mends (conv_tap shared by both gathers, the ring's code under ASYNC=0 only,
# load_fragments' guard): the tensor-core variants checked again on the H100, conv's with the 16-bit
# lines' own problems too, and those lines timed.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c13; mkdir -p $O
R=bench/results/h100-2026-11-26
P=.gpu/plumbline
for v in mma_igemm wgmma_igemm mma_gemm wgmma_gemm; do timeout 100 $P check conv2d --device nvidia:0 --variant $v --cases 12 --seed 31 2>&1 | tail -1 | sed "s/^/$v: /"; done | tee $O/check.log
for v in mma wgmma; do timeout 60 $P check matmul --device nvidia:0 --variant $v --cases 12 --seed 31 2>&1 | tail -1 | sed "s/^/$v: /"; done | tee -a $O/check.log
for p in $(cat $R/wgmma/conv16.batch); do timeout 60 $P check conv2d --device nvidia:0 --problem $p --values edge 2>&1 | tail -1; done | tee -a $O/check.log
timeout 100 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.01 --batch $R/wgmma/conv16.batch 2>&1 | grep "^conv2d" | cut -c1-190 | tee $O/bench.log
cd $OUT && tar czf r.tgz c13 && rm -rf c13
