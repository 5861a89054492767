# `resident` tuned per class: rows (n <= 32768) on 2048 x 32000, vocab on 1024 x 50257 (run2 showed
# one entry for both, ROW_QUADS=50, slowing 32000-wide rows 5-17%); PyTorch on the rows of run2.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/t2; mkdir -p $R; trap 'cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $R/; tar czf $OUT/t2.tgz -C /tmp t2' EXIT
P="stdbuf -oL -eL .gpu/plumbline"; D="--device nvidia:0"
T0=$(date +%s); t() { echo "$1 exit $2 at $(( $(date +%s) - T0 )) s" | tee -a $R/summary.txt; }
for op in softmax log_softmax cross_entropy_bwd; do
  a=m; [ $op = cross_entropy_bwd ] && a=b; n=n; [ $op = cross_entropy_bwd ] && n=c
  timeout 150 $P tune $op --variant resident --problem $op:$a=1024,$n=50257 --problem $op:$a=2048,$n=32000 $D --budget 110 --start 'ROW_WG=256 ROW_QUADS=50' --json $R/tune_$op.json > $R/tune_$op.log 2>&1; t tune_$op $?
done
python3 - > $R/names.json <<'PY'
import json
lines = ["group_norm_bwd:n=%d,c=%d,h=%d,w=%d,g=32,eps=1e-05" % t for t in [(8,256,32,32),(16,128,64,64),(8,512,16,16),(4,64,128,128)]]
lines += ["softmax:m=2048,n=32000", "log_softmax:m=2048,n=32000", "softmax:m=2048,n=50257", "log_softmax:m=2048,n=50257"]
lines += ["cross_entropy_bwd:b=%d,c=%d,labels=index" % t for t in [(2048,32000),(4096,32000),(2048,50257),(8192,50257)]]
print(json.dumps({"benchmarks": [{"name": l + "@nvidia:0"} for l in lines]}))
PY
timeout 120 python3 bench/peers/torch_peer.py $R/names.json $R/torch.json --repetitions 9 --min-time 0.01 > $R/torch.log 2>&1; t torch $?
cut -c1-220 $R/tune_*.log | grep -v "^tuning database"; grep -h median $R/torch.log
