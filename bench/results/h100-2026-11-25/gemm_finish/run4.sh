# Where gemm_bias_act_bwd's time goes: each step's time (bench's step counters), beside plain matmuls
# of its three GEMMs' shapes.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
cat > $R/steps.batch <<'B2'
gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh
gemm_bias_act_bwd:m=8192,k=4096,n=1024,act=none
matmul:m=4096,k=1024,n=4096
matmul:m=4096,k=4096,n=1024,tb=1
matmul:m=1024,k=4096,n=4096,ta=1
B2
stdbuf -oL -eL timeout 200 $B bench --batch $R/steps.batch --device nvidia:0 --repetitions 9 --min-time 0.01 --json $R/steps.json > $R/steps.log 2>&1
grep -v "checked .* of" $R/steps.log | tail -6
tar czf $OUT/r.tgz -C /tmp r
