# Sliced depth (KSLICES) for the batched n=64 product; the backward's three GEMMs one by one.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt
stdbuf -oL -eL timeout 260 $B tune matmul --variant xgemm --problem matmul:batch=64,m=512,k=512,n=64 --device nvidia:0 --budget 220 --json $R/tune_n64.json \
  --start 'MWG=128 NWG=64 KWG=16 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=128 NWG=64 KWG=8 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=64 NWG=64 KWG=16 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=64 NWG=64 KWG=16 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=4' \
  --start 'MWG=128 NWG=64 KWG=16 MDIMC=8 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=2' \
  --start 'MWG=128 NWG=64 KWG=16 MDIMC=16 NDIMC=8 SPLIT_LAYOUTS=1 KSLICES=4' \
  > $R/tune_n64.log 2>&1
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/
cat > $R/steps.batch <<'B2'
gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh
gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh
matmul:m=4096,k=1024,n=4096
matmul:m=4096,k=4096,n=1024,tb=1
matmul:m=1024,k=4096,n=4096,ta=1
bias_add_bwd:m=4096,n=4096
matmul:batch=64,m=512,k=512,n=64
B2
stdbuf -oL -eL timeout 200 $B bench --batch $R/steps.batch --device nvidia:0 --repetitions 9 --min-time 0.01 --json $R/ours.json > $R/ours.log 2>&1
timeout 120 python3 bench/peers/torch_peer.py $R/ours.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
tail -4 $R/tune_n64.log; cat $R/ours.log | grep -v "^\s*$" | tail -12; grep median $R/torch.log
tar czf $OUT/r.tgz -C /tmp r
