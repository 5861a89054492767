# issue15_close/run5: softmax/log_softmax `resident_short` with WG_ROWS rows a work-group: checked,
# tuned (ROW_WG x ROW_QUADS x WG_ROWS), then the attention rows and the pool beside PyTorch in one run.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/issue15_close
O=$OUT/run5
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run5); }
nvidia-smi > $O/device.txt 2>&1
B=.gpu/plumbline
for op in softmax log_softmax; do timeout 90 $B check $op --device nvidia:0 --cases 36 --seed 81 > $O/check_$op.log 2>&1; tail -1 $O/check_$op.log; done
save
for op in softmax log_softmax; do
  timeout 120 $B tune $op --device nvidia:0 --variant resident_short --problem $op:m=32768,n=512 --problem $op:m=256,n=512 --start 'ROW_WG=32 ROW_QUADS=4 WG_ROWS=4' --start 'ROW_WG=32 ROW_QUADS=4 WG_ROWS=2' --budget 100 --json $O/tune_$op.json > $O/tune_$op.log 2>&1
  tail -2 $O/tune_$op.log | head -1 | cut -c1-240
done
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/; save
timeout 150 bash bench/side_by_side.sh $B $O/short python3 0.01 --batch $R/short_rows.batch > $O/short.log 2>&1; save
grep -E "^\|" $O/short/side_by_side.md | cut -d'|' -f2,3,6,7
