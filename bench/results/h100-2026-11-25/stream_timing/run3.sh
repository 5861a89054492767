# stream_timing/run3: (A) reduce_onepass with the early exit of non-last work-groups, paired against
# the kernel before (.gpu/old_kernels: opencl/kernels at 09431e2), in both timings; (B) issue 15's list
# beside PyTorch with --timing stream (side_by_side.sh's default now), the long rows, and the list again.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-25/stream_timing
O=$OUT/run3
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run3); }
nvidia-smi > $O/device.txt 2>&1
S="--problem sum:m=4096,n=4096,over=all --problem mean:m=4096,n=4096,over=all --problem sum:m=1,n=16777216,over=row"
for t in launch stream; do
  timeout 90 .gpu/plumbline bench --device nvidia:0 $S --baseline-plan .gpu/old_kernels/reductions.plan --timing $t \
    --repetitions 15 --min-time 0.01 --json $O/pair_$t.json > $O/pair_$t.log 2>&1
  grep "ratio" $O/pair_$t.log | cut -c1-150; save
done
timeout 150 bash bench/side_by_side.sh .gpu/plumbline $O/mem1 python3 0.01 --batch $R/mem.batch > $O/mem1.log 2>&1; save
grep -E "^\|" $O/mem1/side_by_side.md | cut -d'|' -f2,3,7 | head -20
timeout 200 bash bench/side_by_side.sh .gpu/plumbline $O/long python3 0.01 --batch $R/long_rows.batch > $O/long.log 2>&1; save
grep -E "^\|" $O/long/side_by_side.md | cut -d'|' -f2,3,7
timeout 150 bash bench/side_by_side.sh .gpu/plumbline $O/mem2 python3 0.01 --batch $R/mem.batch > $O/mem2.log 2>&1; save
grep -E "^\|" $O/mem2/side_by_side.md | cut -d'|' -f2,3,7 | head -20
