# Call 3 (stop 33): sum and mean (onepass) retuned with deeper chunks and more quads in flight, then
# every memory-bound batch (rows, elementwise, pooling, unet_groupnorm) beside PyTorch in one run.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/; tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
for op in sum mean; do
  timeout 80 $B tune $op --variant onepass --device nvidia:0 --problem $op:m=4096,n=4096,over=all --problem $op:m=1,n=16777216,over=row \
    --budget 45 --json $R/tune_$op.json --start "SUM_WG=256 SUM_CHUNK=65536 SUM_UNROLL=16" --start "SUM_WG=512 SUM_CHUNK=65536 SUM_UNROLL=8" \
    --start "SUM_WG=256 SUM_CHUNK=65536 SUM_UNROLL=8" --start "SUM_WG=512 SUM_CHUNK=32768 SUM_UNROLL=4" > $R/tune_$op.log 2>&1
  grep -E "winner" $R/tune_$op.log | cut -c1-250
done
save
timeout 420 bash bench/side_by_side.sh $B $R/sbs python3 0.01 --batch bench/batches/rows.batch --batch bench/batches/elementwise.batch \
  --batch bench/batches/pooling.batch --batch bench/batches/unet_groupnorm.batch > $R/sbs.log 2>&1
grep -E "^\|" $R/sbs/side_by_side.md | cut -c1-160; save
