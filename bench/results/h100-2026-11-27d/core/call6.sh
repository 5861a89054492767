# Call 6: the final entries (call 5's tunes, the five cut off written by hand): the 16-bit GEMM lines and
# the 16-bit conv lines side by side with PyTorch in the same dtype.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c6; mkdir -p $O
R=bench/results/h100-2026-11-27d/core
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 200 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/matmul16.batch --batch $R/bias_act16.batch --batch $R/bwd16.batch > $O/sbs.log 2>&1
cat $O/sbs/side_by_side.md; cp $O/sbs/side_by_side.md $O/gemm_side_by_side.md; rm -rf $O/sbs
timeout 150 bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch $R/conv16.batch > $O/sbs_conv.log 2>&1
cat $O/sbs/side_by_side.md; cp $O/sbs/side_by_side.md $O/conv_side_by_side.md; rm -rf $O/sbs
