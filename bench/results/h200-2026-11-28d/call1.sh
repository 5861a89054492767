# Call 1 (stop 58, H200): stop 57's next_call.sh in one device call's limit. (1) The H100's entries read
# under the H200's name (where the H200 has none of its own) against the H200's own database, on issue
# 15's list: is the H100's database a better start for the H200 than the plans' defaults? (2) the
# backwards' `resident` (7b8b88d) against `wide`, each by --variant.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c1; mkdir -p $O
P=$PWD/.gpu/plumbline
T0=$(date +%s)
left() { echo $(($1 - $(date +%s) + T0)); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
mkdir -p /tmp/as200 && cp opencl/tuning/nvidia-h200.tuning /tmp/as200/
grep -v '^#' opencl/tuning/nvidia-h100-80gb-hbm3.tuning | sed 's/^NVIDIA H100 80GB HBM3 |/NVIDIA H200 |/' |
  grep -v '| cross_entropy_bwd | held | all |\|| gemm_bias_act_bwd | wgmma_split_pairs | large |' > /tmp/as200/h100-as-h200.tuning
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
Q="--problem layer_norm_bwd:m=8192,n=1024 --problem rms_norm_bwd:m=8192,n=4096 --problem softmax:m=32768,n=512 --problem softmax:m=2048,n=32000 --problem log_softmax:m=2048,n=32000 --problem cross_entropy_bwd:b=4096,c=32000 --batch bench/batches/elementwise.batch --batch bench/batches/unet_groupnorm.batch"
i=0
for db in opencl/tuning /tmp/as200; do
  i=$((i+1)); PLUMBLINE_TUNING_DIR=$PWD/$db timeout $(left $((200*i))) $P bench $B --json $O/db$i.json $Q > $O/db$i.log 2>&1; echo "$db rc $?"
done
python3 bench/compare.py $O/db1.json $O/db2.json > $O/compare.txt 2>&1; cat $O/compare.txt | cut -c1-160
export PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning
i=0
for v in wide resident; do
  i=$((i+1)); timeout $(left $((400+85*i))) $P bench $B --variant $v --json $O/bwd_$v.json --problem log_softmax_bwd:m=2048,n=32000 --problem softmax_bwd:m=2048,n=32000 \
    --problem log_softmax_bwd:m=2048,n=32000,dtype=bf16 --problem log_softmax_bwd:m=1024,n=50257 > $O/bwd_$v.log 2>&1; echo "$v rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/bwd_$v.json | tee -a $O/bwd_share.txt
done
cd $OUT && tar -czf c1.tgz c1 && rm -rf c1
