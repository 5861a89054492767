# issue15_close/run6: the long float32 rows of issue 15 (cross-entropy at 2048/4096 x 32000 and
# 8192 x 50257, softmax and log_softmax at 2048 x 32000) beside PyTorch in one run, each checked first.
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h100-2026-11-26/issue15_close
O=$OUT/run6
mkdir -p $O
save() { (cd $OUT && tar czf r.tgz run6); }
nvidia-smi > $O/device.txt 2>&1
( while sleep 30; do save; done ) > /dev/null 2>&1 &
saver=$!
timeout 560 bash bench/side_by_side.sh .gpu/plumbline $O/long python3 0.01 --batch $R/long_f32.batch > $O/long.log 2>&1; kill $saver; save
grep -E "^\|" $O/long/side_by_side.md | cut -d'|' -f2,3,6,7
tail -3 $O/long/ours.log
