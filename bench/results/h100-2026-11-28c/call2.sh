# Call 2 (stop 54): cross_entropy_bwd's new `held` variant (softmax_held.cl: the 16-bit row in local
# memory at its stored size, read once) against `quads` (the 16-bit default, 60% of the copy bandwidth
# in stop 36), launches back to back, interleaved runs; then `held` tuned on the two 4096-row problems;
# then the 16-bit cross-entropy lines side by side with `held` ahead of `quads` (a copy of the kernels).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c2; mkdir -p $O
R=bench/results/h100-2026-11-28c
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
s0=$(date +%s)
for run in quads_1 held_1 quads_2 held_2; do
  [ $(( $(date +%s) - s0 )) -gt 200 ] && { echo "skip $run (time)"; continue; }
  timeout 100 $P bench --device nvidia:0 --variant ${run%_*} --timing stream --repetitions 9 --min-time 0.05 \
    --json $O/$run.json --batch $R/ce_bwd.batch > $O/$run.log 2>&1
  echo "$run rc $?"; python3 $R/copy_share.py $O/$run.json
done
s=$(date +%s)
timeout 170 $P tune cross_entropy_bwd --variant held --device nvidia:0 --budget 120 --json $O/tune.json \
  --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/tune.log 2>&1
echo "== tune rc $? in $(( $(date +%s) - s )) s"; tail -4 $O/tune.log | cut -c1-400
cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
d=/tmp/heldfirst; rm -rf $d; cp -r opencl/kernels $d
python3 - $d/softmax.plan <<'PY'
import sys
p = sys.argv[1]; t = open(p).read()
i = t.index("variant held"); j = t.index("\nvariant ", i) + 1
held = t[i:j]; t = t[:i] + t[j:]
k = t.index("variant quads", t.index("op cross_entropy_bwd"))
open(p, "w").write(t[:k] + held + t[k:])
PY
left=$(( 560 - ($(date +%s) - s0) ))
PLUMBLINE_KERNEL_DIR=$d timeout $left bash bench/side_by_side.sh $P /tmp/sbsD python3 0.01 --batch $R/ce16.batch > $O/sbs.log 2>&1
echo "sbs rc $? (limit $left s)"; cp /tmp/sbsD/*.log /tmp/sbsD/*.md /tmp/sbsD/*.json $O/ 2>/dev/null
cut -d"|" -f2,3,5,10 $O/side_by_side.md 2>/dev/null | tail -5
tar -C $OUT -czf $OUT/c2.tgz c2 && rm -rf $O
