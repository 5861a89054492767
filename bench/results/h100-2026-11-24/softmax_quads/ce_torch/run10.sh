set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P="stdbuf -oL -eL .gpu/plumbline"
timeout 100 $P bench --device nvidia:0 --repetitions 9 --min-time 0.01 --problem cross_entropy_bwd:b=4096,c=32000,labels=index --json $R/res_4096.json > $R/res_4096.log 2>&1
grep -h " ms \|rror" $R/res_4096.log | cut -c1-170
timeout 100 python3 bench/peers/torch_peer.py .gpu/s28/names2.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
grep median $R/torch.log
tar czf $OUT/r.tgz -C /tmp r
