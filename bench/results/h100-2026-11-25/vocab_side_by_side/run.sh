# The vocabulary rows with the final entries, then PyTorch, in one call (side by side).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=$OUT; P="stdbuf -oL -eL .gpu/plumbline"
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt
printf '%s\n' softmax:m=2048,n=50257 log_softmax:m=2048,n=50257 cross_entropy_bwd:b=2048,c=50257 cross_entropy_bwd:b=8192,c=50257 > $R/vocab.batch
timeout 420 $P bench --device nvidia:0 --repetitions 9 --min-time 0.01 --batch $R/vocab.batch --json $R/ours.json > $R/ours.log 2>&1; echo "ours exit $?"
timeout 90 python3 bench/peers/torch_peer.py $R/ours.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1; echo "torch exit $?"
grep -h " ms " $R/ours.log | cut -c1-200; grep -h median $R/torch.log
