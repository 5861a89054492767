# Call 4 (stop 53): call 3 put the halves' GEMMs at the core's own speed for their shapes (plain matmuls of
# depth 8192: 0.1404, 0.1367 ms; wgmma_linear's d_b 0.1359) and d_y loaded ahead changed nothing. Here:
# the joined step with its epilogue run twice (the difference: the epilogue's own time, against the
# mainloop's) and with the row loop unrolled by 2 over restrict pointers; then the 16-bit GEMM lines of
# reduced_precision.batch beside PyTorch (batch16/part1a.batch, stop 52's next_call.sh).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t4; mkdir -p $O
R=bench/results/h100-2026-11-28b/tile
F=bench/results/h100-2026-11-28a/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for f in base twice unroll2 base; do
  d=/tmp/ep/$f; rm -rf $d; mkdir -p $d; cp opencl/kernels/* $d/
  [ $f != base ] && python3 $R/epilogue_forms.py $d $f
  timeout 60 $P bench --device nvidia:0 --plan $d/gemm.plan --variant wgmma_split_pairs --timing launch --repetitions 5 --min-time 0.05 \
    --json /tmp/ep_$f.json --batch $F/bf16.batch > $O/ep_$f.log 2>&1
  echo "$f rc $?: $(python3 bench/steps.py /tmp/ep_$f.json 2>/dev/null | sed 's/.*sampled check//')" | tee -a $O/epilogue.txt
done
grep -hE "FAIL|error|invalid" $O/*.log | sort | uniq -c | head
B=bench/results/h100-2026-11-28a/batch16
s=$(date +%s)
timeout 220 bash bench/side_by_side.sh $P /tmp/part1a python3 0.01 --batch $B/part1a.batch > $O/part1a.log 2>&1
echo "== part1a rc $? in $(( $(date +%s) - s )) s"
cp /tmp/part1a/side_by_side.md $O/part1a.md 2>/dev/null && cut -d"|" -f2,3,10 $O/part1a.md | cut -c1-40,90- | tail -n +3
tar -C $OUT -czf $OUT/t4.tgz t4 && rm -rf $O
