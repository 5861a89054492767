# Call 3 (stop 58, H200): the driver's architecture as plumbline reads it (the H100's entries now lend
# themselves to the H200 where it has none of its own: opencl/tuning/architectures), then issue 15's
# memory-bound batches beside PyTorch in one run each (rows first: the backwards' `resident` now ahead
# of `wide`, layer_norm_bwd and rms_norm_bwd on the H200's own entries), each line's share of the copy.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c3; mkdir -p $O
P=$PWD/.gpu/plumbline
T0=$(date +%s)
left() { echo $(($1 - $(date +%s) + T0)); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
$P devices --device nvidia:0 | tee $O/devices.log
timeout $(left 575) bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch bench/batches/rows.batch --batch bench/batches/elementwise.batch \
  --batch bench/batches/unet_groupnorm.batch --batch bench/batches/pooling.batch > $O/sbs.log 2>&1
echo "sbs rc $?"
for j in $O/sbs/*/ours.json; do python3 bench/results/h100-2026-11-28c/copy_share.py $j; done > $O/share.txt 2>&1
cut -c1-200 $O/sbs/side_by_side.md 2>/dev/null | head -60
cd $OUT && tar -czf c3.tgz c3 && rm -rf c3
