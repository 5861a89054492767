set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
rm -rf /tmp/r; mkdir -p /tmp/r
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/r/device.txt
for op in conv2d conv2d_bwd_data conv2d_bwd_weight; do
  stdbuf -oL -eL timeout 150 $B check $op --variant direct --device nvidia:0 --cases 40 2>&1 | tail -1 | tee -a /tmp/r/check_direct.txt
done
stdbuf -oL -eL timeout 200 $B mutants --catalogue --op conv2d --device nvidia:0 --cases 100 --seed 1 2>&1 | tail -8 | tee /tmp/r/catalogue_conv2d.txt
tar czf $OUT/r.tgz -C /tmp r
