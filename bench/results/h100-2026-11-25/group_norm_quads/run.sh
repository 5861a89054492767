# group_norm_bwd `planes` reading quads: checks, NORM_WG tuned, interleaved against HEAD (co-moments,
# one value a load), then PyTorch in the same call.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/g; mkdir -p $R; trap 'cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/; tar czf $OUT/g.tgz -C /tmp g' EXIT
P="stdbuf -oL -eL .gpu/plumbline"; D="--device nvidia:0"; B="$D --repetitions 9 --min-time 0.01"
T0=$(date +%s); t() { echo "$1 exit $2 at $(( $(date +%s) - T0 )) s" | tee -a $R/summary.txt; }
timeout 90 $P check group_norm_bwd --variant planes --cases 60 --seed 34 $D > $R/check.log 2>&1; t check $?
grep -h "pass\|FAIL" $R/check.log
timeout 150 $P tune group_norm_bwd --variant planes --problem group_norm_bwd:n=4,c=64,h=128,w=128,g=32 --problem group_norm_bwd:n=16,c=128,h=64,w=64,g=32 $D --budget 100 --json $R/tune.json > $R/tune.log 2>&1; t tune $?
cut -c1-220 $R/tune.log
timeout 60 $P check group_norm_bwd --cases 40 --seed 35 $D > $R/check_tuned.log 2>&1; t check_tuned $?
grep -h "pass\|FAIL" $R/check_tuned.log
timeout 90 $P bench $B --batch bench/batches/unet_groupnorm.batch --baseline-plan .gpu/old/opencl/kernels/norms.plan --json $R/paired.json > $R/paired.log 2>&1; t paired $?
grep -h "ratio" $R/paired.log | grep bwd | cut -c1-200
timeout 60 $P bench $B --batch bench/batches/unet_groupnorm.batch --json $R/ours.json > $R/ours.log 2>&1; t ours $?
timeout 60 python3 bench/peers/torch_peer.py $R/ours.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1; t torch $?
grep -h " ms " $R/ours.log | grep bwd | cut -c1-200; grep -h median $R/torch.log | grep bwd
