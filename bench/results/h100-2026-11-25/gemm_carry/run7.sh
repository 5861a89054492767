# Call 7 (stop 33): sum and mean over 16M elements, `strided` (a grid-strided walk, one contiguous
# window of the tensor at a time) against `onepass` (a contiguous chunk a work-group), alternating,
# then a short tune of `strided`, then PyTorch on the same problems.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline; R=/tmp/r; rm -rf $R; mkdir -p $R/db; cp $0 $R/; cp opencl/tuning/*.tuning $R/db/
save() { tar czf $OUT/r.tgz -C /tmp r; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/device.txt 2>&1; date -u >> $R/device.txt
printf 'sum:m=4096,n=4096,over=all\nmean:m=4096,n=4096,over=all\nsum:m=1,n=16777216,over=row\n' > $R/sum.batch
timeout 60 $B check sum --variant strided --device nvidia:0 --cases 20 > $R/checks.log 2>&1
timeout 60 $B check mean --variant strided --device nvidia:0 --problem mean:m=4099,n=4097,over=all >> $R/checks.log 2>&1
grep -E "nvidia:0 +(pass|FAIL)" $R/checks.log
for round in 1 2; do for v in onepass strided; do
  timeout 60 $B bench --batch $R/sum.batch --device nvidia:0 --variant $v --repetitions 9 --min-time 0.01 --json $R/${v}_$round.json > $R/${v}_$round.log 2>&1
  grep "@nvidia" $R/${v}_$round.log | cut -c1-110
done; done; save
for op in sum mean; do
  timeout 75 $B tune $op --variant strided --device nvidia:0 --problem $op:m=4096,n=4096,over=all --problem $op:m=1,n=16777216,over=row --budget 50 --db $R/db \
    --start "SUM_WG=256 SUM_GROUPS=1056 SUM_UNROLL=4" --start "SUM_WG=256 SUM_GROUPS=264 SUM_UNROLL=8" --start "SUM_WG=128 SUM_GROUPS=1056 SUM_UNROLL=8" > $R/tune_$op.log 2>&1
  grep -E "^$op/|winner" $R/tune_$op.log | cut -c1-160
done; save
timeout 90 python3 bench/peers/torch_peer.py $R/onepass_1.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
grep fp32 $R/torch.log; save
