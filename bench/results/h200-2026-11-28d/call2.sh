# Call 2 (stop 58, H200): call 1's second database was read from $PWD//tmp/as200 (no such folder: an
# empty database), so its comparison said nothing about the H100's entries. Again with the path right,
# on the operators with H100 entries; then the H200's own search of layer_norm_bwd and rms_norm_bwd
# (14.7% and ~40% of the copy on the plan's defaults), from the H100's entries, into a copy of the db.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c2; mkdir -p $O
P=$PWD/.gpu/plumbline
T0=$(date +%s)
left() { echo $(($1 - $(date +%s) + T0)); }
mkdir -p /tmp/as200 && cp opencl/tuning/nvidia-h200.tuning /tmp/as200/
grep -v '^#' opencl/tuning/nvidia-h100-80gb-hbm3.tuning | sed 's/^NVIDIA H100 80GB HBM3 |/NVIDIA H200 |/' |
  grep -v '| cross_entropy_bwd | held | all |\|| gemm_bias_act_bwd | wgmma_split_pairs | large |' > /tmp/as200/h100-as-h200.tuning
grep -c "NVIDIA H200 | .* | layer_norm_bwd" /tmp/as200/h100-as-h200.tuning
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
Q="--problem layer_norm_bwd:m=8192,n=1024 --problem rms_norm_bwd:m=8192,n=4096 --problem softmax:m=32768,n=512 --problem softmax:m=2048,n=32000 --problem log_softmax:m=2048,n=32000 --problem log_softmax:m=1024,n=50257 --batch bench/batches/elementwise.batch --problem group_norm_bwd:n=4,c=64,h=128,w=128,g=32 --problem group_norm_bwd:n=16,c=128,h=64,w=64,g=32"
i=0
for db in $PWD/opencl/tuning /tmp/as200; do
  i=$((i+1)); PLUMBLINE_TUNING_DIR=$db timeout $(left $((110*i))) $P bench $B --json $O/db$i.json $Q > $O/db$i.log 2>&1; echo "$db rc $?"
done
python3 bench/compare.py $O/db1.json $O/db2.json > $O/compare.txt 2>&1; cut -c1-150 $O/compare.txt
export PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning
mkdir -p $O/db && cp opencl/tuning/*.tuning $O/db/
timeout $(left 370) $P tune layer_norm_bwd --variant rows --device nvidia:0 --budget 110 --db $O/db --json $O/tune_ln.json \
  --problem layer_norm_bwd:m=8192,n=1024 --start "NORM_WG=128 PER=8 ROWS=16" > $O/tune_ln.log 2>&1; echo "tune ln rc $?"
timeout $(left 560) $P tune rms_norm_bwd --variant rows --device nvidia:0 --budget 110 --db $O/db --json $O/tune_rms.json \
  --problem rms_norm_bwd:m=8192,n=4096 --start "NORM_WG=256 PER=16 ROWS=16" > $O/tune_rms.log 2>&1; echo "tune rms rc $?"
tail -4 $O/tune_ln.log $O/tune_rms.log | cut -c1-250
cd $OUT && tar -czf c2.tgz c2 && rm -rf c2
