# For the next stop (written in stop 55, not run: the device time was spent). What call 5 could not
# finish at stop 55's final kernels: the f16 pair of held_grad4, and every operator's check on NVIDIA;
# then the 16-bit cross-entropy lines by stream with the copy share (on an H100 if one is lent: stop
# 54's 67% for bf16 was before the cvt and held_grad4). .gpu/kbase3 = a92f1b4's opencl/kernels.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/n1; mkdir -p $O
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 200 $P check --all --device nvidia:0 --cases 6 > $O/all.log 2>&1; echo "all rc $?"; grep -c " pass " $O/all.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
timeout 120 $P bench $B --baseline-plan .gpu/kbase3/softmax.plan --variant held --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/pair_f16.log 2>&1; tail -2 $O/pair_f16.log
timeout 150 $P bench $B --json $O/held.json --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1
python3 bench/results/h100-2026-11-28c/copy_share.py $O/held.json
