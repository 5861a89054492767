set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
rm -rf /tmp/r; mkdir -p /tmp/r
nvidia-smi --query-gpu=name,driver_version --format=csv > /tmp/r/device.txt
stdbuf -oL -eL timeout 290 $B tune matmul --variant xgemm --problem matmul:batch=64,m=512,k=512,n=64 --device nvidia:0 --budget 250 --json /tmp/r/tune_matmul_n64.json > /tmp/r/tune_matmul_n64.log 2>&1
stdbuf -oL -eL timeout 290 $B tune gemm_bias_act_bwd --variant xgemm --problem gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh --device nvidia:0 --budget 250 --json /tmp/r/tune_bwd_gelu.json > /tmp/r/tune_bwd_gelu.log 2>&1
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning /tmp/r/
tail -3 /tmp/r/tune_matmul_n64.log /tmp/r/tune_bwd_gelu.log
tar czf $OUT/r.tgz -C /tmp r
