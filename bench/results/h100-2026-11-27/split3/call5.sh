# Call 5: the 16-bit GEMM lines side by side on this stop's code (storage.h's pair_bits under every
# 16-bit pair store), and random cases of the tensor-core variants at their entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c5; mkdir -p $O
R=bench/results/h100-2026-11-27/split3
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 200 bash bench/side_by_side.sh $P $O/gemm python3 0.01 --batch $R/gemm16.batch > $O/gemm.log 2>&1
grep "|" $O/gemm/side_by_side.md | cut -d'|' -f2,3,10
(for op in matmul gemm_bias_act gemm_bias_act_bwd conv2d; do for v in wgmma mma wgmma_split wgmma_split3 wgmma_linear wgmma_igemm wgmma_igemm_split; do
   timeout 100 $P check $op --device nvidia:0 --variant $v --cases 8 --seed 21 2>&1 | grep -v "^  " | tail -1 | sed "s/^/$v /"; done; done) > $O/check.log 2>&1
grep -v "has no variant" $O/check.log | cut -c1-200
cd $OUT && tar czf r.tgz c5 && rm -rf c5
