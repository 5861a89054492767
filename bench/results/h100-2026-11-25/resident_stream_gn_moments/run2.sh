# log_softmax's `resident` tuned as softmax's was; then the new kernels (tuned entries) over the
# group_norm_bwd layers and the vocabulary rows, PyTorch beside them in the same run.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/r2; mkdir -p $R; trap 'cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/; tar czf $OUT/r2.tgz -C /tmp r2' EXIT
P="stdbuf -oL -eL .gpu/plumbline"; D="--device nvidia:0"; B="$D --repetitions 9 --min-time 0.01"
T0=$(date +%s); t() { echo "$1 exit $2 at $(( $(date +%s) - T0 )) s" | tee -a $R/summary.txt; }
timeout 130 $P tune log_softmax --variant resident --problem log_softmax:m=1024,n=50257 --problem log_softmax:m=1024,n=32000 $D --budget 90 --start 'ROW_WG=256 ROW_QUADS=50' --json $R/tune_log_softmax.json > $R/tune_log_softmax.log 2>&1; t tune_log_softmax $?
cut -c1-200 $R/tune_log_softmax.log
printf '%s\n' group_norm_bwd:n=8,c=256,h=32,w=32,g=32 group_norm_bwd:n=16,c=128,h=64,w=64,g=32 group_norm_bwd:n=8,c=512,h=16,w=16,g=32 group_norm_bwd:n=4,c=64,h=128,w=128,g=32 softmax:m=2048,n=32000 log_softmax:m=2048,n=32000 softmax:m=2048,n=50257 log_softmax:m=2048,n=50257 cross_entropy_bwd:b=2048,c=32000 cross_entropy_bwd:b=4096,c=32000 cross_entropy_bwd:b=2048,c=50257 cross_entropy_bwd:b=8192,c=50257 > $R/now.batch
timeout 330 $P bench $B --batch $R/now.batch --json $R/ours.json > $R/ours.log 2>&1; t ours $?
grep -h " ms " $R/ours.log | cut -c1-200
timeout 90 python3 bench/peers/torch_peer.py $R/ours.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1; t torch $?
grep -h median $R/torch.log
