# stream_timing/run2 (run1 ran out of its time limit after its first side-by-side: 100 launches an
# iteration made each repetition 100x min-time): ours alone, one launch at a time and 100 back to back
# (each iteration's time the burst's mean, --min-time 0.0005 so that a repetition is ~50 ms), twice;
# then PyTorch one call at a time and in a loop. Each part tarred as it ends.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-25/stream_timing
mkdir -p $OUT/run2
for i in 1 2; do
  PLUMBLINE_STREAM=0 timeout 100 .gpu/plumbline bench --device nvidia:0 --batch $R/probe.batch --repetitions 9 --min-time 0.01 > $OUT/run2/s0_$i.log 2>&1
  PLUMBLINE_STREAM=100 timeout 100 .gpu/plumbline bench --device nvidia:0 --batch $R/probe.batch --repetitions 9 --min-time 0.0005 > $OUT/run2/s100_$i.log 2>&1
  (cd $OUT && tar czf r.tgz run2)
done
timeout 120 python3 $R/percall.py > $OUT/run2/percall.log 2>&1
(cd $OUT && tar czf r.tgz run2)
grep -h "@nvidia" $OUT/run2/s*.log | cut -c1-100; cat $OUT/run2/percall.log
