# Call 3 (stop 49): the medium and few_tiles layers by step (--timing launch, each step waited for) at
# call 2's entry: how much of the 56x56 1x1 layer's time is the two packs of x and d_y.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/w3; mkdir -p $O
R=bench/results/h100-2026-11-27f/bwd_weight_medium
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 200 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json $O/steps.json --batch $R/medium16.batch > $O/steps.log 2>&1
python3 bench/steps.py $O/steps.json | tee $O/steps.txt
