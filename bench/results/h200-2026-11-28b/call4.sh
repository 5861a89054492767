# Call 4 (stop 56, H200): every operator's check on NVIDIA at b87879d's kernels (storage.h's bf16 quads
# unpacked anew: every bf16 kernel that loads quads builds again).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c4; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 220 .gpu/plumbline check --all --device nvidia:0 --cases 4 > $O/all.log 2>&1; echo "all rc $?"; grep -c " pass " $O/all.log; grep -v " pass \|not checked" $O/all.log | tail -5
