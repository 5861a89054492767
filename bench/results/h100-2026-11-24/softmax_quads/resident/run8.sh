set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r; mkdir -p $R
P="stdbuf -oL -eL .gpu/plumbline"
B="--device nvidia:0 --repetitions 9 --min-time 0.01"
for op in softmax log_softmax cross_entropy_bwd; do timeout 50 $P check $op --variant resident --cases 30 --device nvidia:0 --seed 30 > $R/check_$op.log 2>&1; tail -1 $R/check_$op.log; done
timeout 40 $P check --problem cross_entropy_bwd:b=5,c=32001,labels=index,dtype=bf16 --variant resident --device nvidia:0 --values edge 2>&1 | tail -1
for round in 1 2; do
timeout 90 $P bench $B --batch .gpu/s28/res.batch --json $R/res_$round.json > $R/res_$round.log 2>&1
timeout 90 $P bench $B --batch .gpu/s28/res.batch --variant quads --json $R/quads_$round.json > $R/quads_$round.log 2>&1
done
grep -h " ms \|rror" $R/res_*.log $R/quads_*.log | cut -c1-170
tar czf $OUT/r.tgz -C /tmp r
