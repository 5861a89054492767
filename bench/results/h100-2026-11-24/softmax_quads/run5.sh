set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P="stdbuf -oL -eL .gpu/plumbline"
B="--device nvidia:0 --repetitions 9 --min-time 0.01"
timeout 100 python3 bench/peers/torch_peer.py .gpu/s28/names.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
grep median $R/torch.log
timeout 90 $P bench $B --problem softmax:m=2048,n=32000 --problem cross_entropy_bwd:b=4096,c=32000 --variant wide --json $R/wide.json > $R/wide.log 2>&1
grep -h " ms " $R/wide.log | cut -c1-170
timeout 370 $P bench $B --problem cross_entropy_bwd:b=8192,c=50257 --json $R/quads_big.json > $R/quads_big.log 2>&1
grep -h " ms " $R/quads_big.log | cut -c1-170
tar czf $OUT/r.tgz -C /tmp r
