set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
rm -rf /tmp/r; mkdir -p /tmp/r
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/r/device.txt
for op in conv2d conv2d_bwd_data conv2d_bwd_weight; do
  stdbuf -oL -eL timeout 150 $B check $op --variant direct --device nvidia:0 --cases 40 2>&1 | tail -1 | tee -a /tmp/r/check_direct.txt
done
P=n=8,c=64,h=56,w=56,k=64,r=3,s=3,ph=1,pw=1
stdbuf -oL -eL timeout 120 $B bench --device nvidia:0 --repetitions 3 --min-time 0.01 --problem conv2d:$P --problem conv2d_bwd_data:$P --problem conv2d_bwd_weight:$P 2>&1 | tail -4 | tee /tmp/r/default_selection.txt
tar czf $OUT/r.tgz -C /tmp r
