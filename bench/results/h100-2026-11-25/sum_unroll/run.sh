# sum and mean (onepass) with SUM_UNROLL quads in flight per work-item: tuned on the H100 over the
# whole-tensor and one-row 16M-element problems, then beside PyTorch in one run.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/before.tuning
for op in sum mean; do
  stdbuf -oL -eL timeout 110 $B tune $op --variant onepass --problem $op:m=4096,n=4096,over=all --problem $op:m=1,n=16777216,over=row --device nvidia:0 --budget 90 \
    --start 'SUM_WG=256 SUM_CHUNK=8192 SUM_UNROLL=4' --start 'SUM_WG=256 SUM_CHUNK=16384 SUM_UNROLL=8' --start 'SUM_WG=512 SUM_CHUNK=16384 SUM_UNROLL=4' \
    --start 'SUM_WG=128 SUM_CHUNK=8192 SUM_UNROLL=8' --start 'SUM_WG=256 SUM_CHUNK=4096 SUM_UNROLL=2' > $R/tune_$op.log 2>&1
  grep "winner" $R/tune_$op.log
done
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/after.tuning
cat > $R/sum.batch <<'B2'
sum:m=4096,n=4096,over=all
mean:m=4096,n=4096,over=all
sum:m=1,n=16777216,over=row
mean:m=1,n=16777216,over=row
sum:m=4096,n=4096,over=row
B2
stdbuf -oL -eL timeout 100 $B bench --batch $R/sum.batch --device nvidia:0 --repetitions 9 --min-time 0.01 --json $R/ours.json > $R/ours.log 2>&1
timeout 100 python3 bench/peers/torch_peer.py $R/ours.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
grep "@nvidia" $R/ours.log | cut -c1-130; grep "fp32" $R/torch.log
tar czf $OUT/r.tgz -C /tmp r
