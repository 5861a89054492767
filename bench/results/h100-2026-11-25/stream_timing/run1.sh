# stream_timing/run1: ours one launch at a time (PLUMBLINE_STREAM=0, bench's method) and 100 launches
# back to back (PLUMBLINE_STREAM=100, the experiment), twice each, beside PyTorch; then PyTorch per call.
set -x
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-25/stream_timing
mkdir -p $OUT/run1
nvidia-smi > $OUT/run1/device.txt 2>&1
for i in 1 2; do
  for s in 0 100; do
    PLUMBLINE_STREAM=$s bash bench/side_by_side.sh .gpu/plumbline $OUT/run1/s${s}_$i python3 0.01 --batch $R/probe.batch > $OUT/run1/s${s}_$i.log 2>&1
    grep -h "@nvidia" $OUT/run1/s${s}_$i/ours.log | cut -c1-110
  done
done
python3 $R/percall.py > $OUT/run1/percall.log 2>&1; cat $OUT/run1/percall.log
cd $OUT && tar czf r.tgz run1
