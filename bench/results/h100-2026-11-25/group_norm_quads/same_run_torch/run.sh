# The call after run.sh (whose PyTorch pass took 0.14-0.17 ms on every layer, 2-3x its other runs):
# ours over the batch, then PyTorch twice (--min-time 0.01 and 0.05), in one call.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc; R=$OUT
.gpu/plumbline bench --device nvidia:0 --repetitions 9 --min-time 0.01 --batch bench/batches/unet_groupnorm.batch --json $R/ours.json > $R/ours.log 2>&1
python3 bench/peers/torch_peer.py $R/ours.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
python3 bench/peers/torch_peer.py $R/ours.json $R/torch2.json --repetitions 9 --min-time 0.05 > $R/torch2.log 2>&1
