set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P="stdbuf -oL -eL .gpu/plumbline"
B="--device nvidia:0 --repetitions 9 --min-time 0.01"
Q=max_pool2d_bwd:n=32,c=64,h=112,w=112,kh=3,kw=3,sh=2,sw=2,ph=1,pw=1
timeout 60 $P check max_pool2d_bwd --variant plane --cases 60 --device nvidia:0 --seed 31 > $R/check.log 2>&1; tail -1 $R/check.log
timeout 60 $P check --problem $Q,dtype=f16 --variant plane --device nvidia:0 --values edge 2>&1 | tail -1
timeout 120 $P tune max_pool2d_bwd --variant plane --problem $Q --device nvidia:0 --budget 90 > $R/tune.log 2>&1; grep -h "winner\|best so far" $R/tune.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/
for round in 1 2; do
timeout 40 $P bench $B --problem $Q --json $R/plane_$round.json > $R/plane_$round.log 2>&1
timeout 40 $P bench $B --problem $Q --variant planes --json $R/planes_$round.json > $R/planes_$round.log 2>&1
done
grep -h " ms \|rror" $R/plane_*.log $R/planes_*.log | cut -c1-170
timeout 60 python3 bench/peers/torch_peer.py $R/plane_2.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
grep median $R/torch.log
tar czf $OUT/r.tgz -C /tmp r
