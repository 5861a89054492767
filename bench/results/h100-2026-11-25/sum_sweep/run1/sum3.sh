# Call 3 (stop 34): whole-tensor sums from 4M to 64M elements beside PyTorch, to split our time and
# PyTorch's into a fixed part (launch, ramp, the last work-group's finish) and a per-byte part: a line
# fitted through the five sizes. Issue 15's one item short is the 16M-element sum (1.06-1.09x).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R; cp $0 $R/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
for n in 4096 8192 16384 32768 65536; do echo "sum:m=1024,n=$n,over=all"; done > $R/sweep.batch
for n in 4096 16384 65536; do echo "mean:m=1024,n=$n,over=all"; done >> $R/sweep.batch
for s in 1 2; do
  timeout 250 bash bench/side_by_side.sh $B $R/sbs$s python3 0.01 --batch $R/sweep.batch > $R/sbs$s.log 2>&1
  grep -E "^\|" $R/sbs$s/side_by_side.md | cut -c1-200; save
done
