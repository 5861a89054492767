# Issue 13's two problems on the line, with the final kernels and entries (matmul narrow 128x64
# KSLICES=2), beside PyTorch, three times in one call to show the spread between passes.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
cat > $R/p.batch <<'B2'
matmul:batch=64,m=512,k=512,n=64
gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh
B2
for i in 1 2 3; do
  timeout 80 $B bench --batch $R/p.batch --device nvidia:0 --repetitions 9 --min-time 0.01 --json $R/ours$i.json > $R/ours$i.log 2>&1
  timeout 60 python3 bench/peers/torch_peer.py $R/ours$i.json $R/torch$i.json --repetitions 9 --min-time 0.01 > $R/torch$i.log 2>&1
  echo "== pass $i"; grep "@nvidia" $R/ours$i.log | cut -c1-100; grep "fp32" $R/torch$i.log
done
tar czf $OUT/r.tgz -C /tmp r
