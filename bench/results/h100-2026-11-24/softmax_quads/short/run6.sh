set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P="stdbuf -oL -eL .gpu/plumbline"
B="--device nvidia:0 --repetitions 9 --min-time 0.01"
timeout 40 $P check softmax --variant quads --cases 30 --device nvidia:0 --seed 29 2>&1 | tail -1
timeout 130 $P tune softmax --variant quads --problem softmax:m=32768,n=512 --problem softmax:m=65536,n=256 --device nvidia:0 --budget 110 > $R/tune_softmax_short.log 2>&1; grep -h "winner\|best so far" $R/tune_softmax_short.log | cut -c1-200
timeout 110 $P tune log_softmax --variant quads --problem log_softmax:m=32768,n=512 --device nvidia:0 --budget 90 > $R/tune_log_softmax_short.log 2>&1; grep -h "winner\|best so far" $R/tune_log_softmax_short.log | cut -c1-200
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/
for round in 1 2; do
timeout 60 $P bench $B --batch .gpu/s28/short.batch --json $R/quads_$round.json > $R/quads_$round.log 2>&1
timeout 60 $P bench $B --batch .gpu/s28/short.batch --variant narrow --json $R/narrow_$round.json > $R/narrow_$round.log 2>&1
done
grep -h " ms " $R/quads_*.log $R/narrow_*.log | cut -c1-170
timeout 60 python3 bench/peers/torch_peer.py $R/quads_2.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
grep median $R/torch.log
tar czf $OUT/r.tgz -C /tmp r
