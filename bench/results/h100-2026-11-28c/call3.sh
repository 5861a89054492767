# Call 3 (stop 54): `held` with REG_QUADS=9 (the 32000-wide row read once: 23 quads a work-item in local
# memory, 9 in registers; call 2 ran it with the slots alone, REG_QUADS=0) and the recip form
# (held_forms.py), each one bench run over both 16-bit 4096 x 32000 problems (the check's host side
# takes ~40 s a problem: call 2 ran out of time); then the 16-bit cross-entropy lines side by side
# with `held` ahead of `quads` in a copy of the kernels, in the faster form.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c3; mkdir -p $O
R=bench/results/h100-2026-11-28c
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
s0=$(date +%s)
for form in regs9 recip; do
  d=/tmp/hf/$form; rm -rf $d; mkdir -p $d; cp opencl/kernels/* $d/
  [ $form != regs9 ] && python3 $R/held_forms.py $d $form
  timeout 120 $P bench --device nvidia:0 --plan $d/softmax.plan --variant held --timing stream --repetitions 9 --min-time 0.05 \
    --json $O/$form.json --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/$form.log 2>&1
  echo "$form rc $? at $(( $(date +%s) - s0 )) s"; grep "@nvidia" $O/$form.log | cut -c1-170
done
best=regs9
t9=$(grep -h "@nvidia" $O/regs9.log | awk '{s += $2} END {print s}'); tr=$(grep -h "@nvidia" $O/recip.log | awk '{s += $2} END {print s}')
python3 -c "import sys; sys.exit(0 if float('$tr' or 9) < 0.99 * float('$t9' or 9) else 1)" && best=recip
echo "sums: regs9 $t9 recip $tr -> $best"
d=/tmp/hf/$best
python3 - $d/softmax.plan <<'PY'
import sys
p = sys.argv[1]; t = open(p).read()
i = t.index("variant held"); j = t.index("\nvariant ", i) + 1
held = t[i:j]; t = t[:i] + t[j:]
k = t.index("variant quads", t.index("op cross_entropy_bwd"))
open(p, "w").write(t[:k] + held + t[k:])
PY
left=$(( 540 - ($(date +%s) - s0) ))
PLUMBLINE_KERNEL_DIR=$d timeout $left bash bench/side_by_side.sh $P /tmp/sbsE python3 0.01 --batch $R/ce16.batch > $O/sbs.log 2>&1
echo "sbs rc $? (limit $left s)"; cp /tmp/sbsE/*.log /tmp/sbsE/*.md /tmp/sbsE/*.json $O/ 2>/dev/null
cut -d"|" -f2,3,5,10 $O/side_by_side.md 2>/dev/null | tail -5
tar -C $OUT -czf $OUT/c3.tgz c3 && rm -rf $O
