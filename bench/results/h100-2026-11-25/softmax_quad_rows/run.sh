# softmax and log_softmax `quads` with QUAD_ROWS rows a work-group: tuned on the H100 for the short
# class, then beside PyTorch in one run; then checks of this stop's changed operators with the final entries.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/before.tuning
for op in softmax log_softmax; do
  stdbuf -oL -eL timeout 100 $B tune $op --variant quads --problem $op:m=32768,n=512 --problem $op:m=65536,n=256 --device nvidia:0 --budget 80 \
    --start 'ROW_WG=32 QUAD_UNROLL=2 QUAD_ROWS=4' --start 'ROW_WG=32 QUAD_UNROLL=2 QUAD_ROWS=8' --start 'ROW_WG=64 QUAD_UNROLL=1 QUAD_ROWS=4' \
    --start 'ROW_WG=32 QUAD_UNROLL=1 QUAD_ROWS=8' --start 'ROW_WG=32 QUAD_UNROLL=2 QUAD_ROWS=2' > $R/tune_$op.log 2>&1
  grep "winner" $R/tune_$op.log
done
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/after.tuning
cat > $R/short.batch <<'B2'
softmax:m=32768,n=512
softmax:m=65536,n=256
log_softmax:m=32768,n=512
log_softmax:m=65536,n=256
sum:m=4096,n=4096,over=all
mean:m=4096,n=4096,over=all
B2
stdbuf -oL -eL timeout 90 $B bench --batch $R/short.batch --device nvidia:0 --repetitions 9 --min-time 0.01 --json $R/ours.json > $R/ours.log 2>&1
timeout 90 python3 bench/peers/torch_peer.py $R/ours.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1
grep "@nvidia" $R/ours.log | cut -c1-150; grep "fp32" $R/torch.log
for op in "softmax --cases 40" "log_softmax --cases 40" "sum --cases 40" "mean --cases 40" "matmul --cases 30" "gemm_bias_act_bwd --cases 20"; do
  timeout 60 $B check $op --device nvidia:0 > $R/check_${op%% *}.log 2>&1; tail -1 $R/check_${op%% *}.log
done
tar czf $OUT/r.tgz -C /tmp r
