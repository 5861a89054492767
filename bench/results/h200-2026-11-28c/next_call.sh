# For the next stop (written in stop 57, not run: the device time was spent). The H200 runs its plan's
# defaults for every operator but two (layer_norm_bwd 0.1646 ms there, 0.0805 on the H100 with its
# entry). (1) The H100's entries read as the H200's, against the H200's own database, on issue 15's
# list (one bench each, medians compared by hand or with bench/compare.py); (2) the rows batch beside
# PyTorch that call 3 cut off, with a longer limit (its checks took most of call 3's 370 s); (3) the
# backwards' `resident` (7b8b88d, listed after `wide` until timed) against `wide`: if it wins, move it
# before `wide` in softmax.plan.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/n1; mkdir -p $O
P=$PWD/.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
mkdir -p /tmp/as200 && cp opencl/tuning/nvidia-h200.tuning /tmp/as200/
# the H100's entries under the H200's name, where the H200 has none of its own (its two stay)
grep -v '^#' opencl/tuning/nvidia-h100-80gb-hbm3.tuning | sed 's/^NVIDIA H100 80GB HBM3 |/NVIDIA H200 |/' |
  grep -v '| cross_entropy_bwd | held | all |\|| gemm_bias_act_bwd | wgmma_split_pairs | large |' > /tmp/as200/h100-as-h200.tuning
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.02"
Q="--problem layer_norm_bwd:m=8192,n=1024 --problem rms_norm_bwd:m=8192,n=4096 --problem layer_norm:m=8192,n=1024 --batch bench/batches/elementwise.batch --batch bench/batches/unet_groupnorm.batch"
for db in opencl/tuning /tmp/as200; do
  PLUMBLINE_TUNING_DIR=$PWD/$db timeout 200 $P bench $B --json $O/$(basename $db).json $Q > $O/$(basename $db).log 2>&1; echo "$db rc $?"
done
python3 bench/compare.py $O/tuning.json $O/as200.json 2>&1 | tee $O/compare.txt
export PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning
for v in wide resident; do
  timeout 120 $P bench $B --variant $v --json $O/bwd_$v.json --problem log_softmax_bwd:m=2048,n=32000 --problem softmax_bwd:m=2048,n=32000 \
    --problem log_softmax_bwd:m=2048,n=32000,dtype=bf16 --problem log_softmax_bwd:m=1024,n=50257 > $O/bwd_$v.log 2>&1; echo "$v rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/bwd_$v.json | tee -a $O/bwd_share.txt
done
timeout 300 bash bench/side_by_side.sh $P $O/rows python3 0.01 --batch bench/batches/rows.batch > $O/rows.log 2>&1; echo "rows rc $?"
cd $OUT && tar -czf n1.tgz n1 && rm -rf n1
