# Call 1 (stop 56, H200): where held's time goes. (a) the 16-bit cross-entropy backward at stop 55's
# final kernels by stream with the copy share (both dtypes), (b) held's SASS from the program cache
# (PTX -> Triton's ptxas -> cuobjdump, as stop 53's call 5) to count the instructions a value,
# (c) experiments, each checked before timed, paired against the current kernels on 2048 x 32000:
# .gpu/knat (exp as native_exp in held's program), .gpu/kfold (scale * inv_sum folded: one product a
# value outside the target's quad), .gpu/knf (both); (d) check --all with the time left.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c1; mkdir -p $O
P=.gpu/plumbline
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
timeout 150 $P bench $B --json $O/held.json --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1; echo "held rc $?"
python3 bench/results/h100-2026-11-28c/copy_share.py $O/held.json | tee $O/share.txt
TB=/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/bin
D=$(command -v cuobjdump || echo $TB/cuobjdump)
sass() {  # $1 cache dir, $2 label
  n=0
  for f in $(grep -l "cross_entropy_backward_index_held" -r $1); do
    n=$((n + 1))
    python3 - "$f" /tmp/h.ptx <<'PY'
import sys
t = open(sys.argv[1], 'rb').read(); i = t.index(b'.version')
open(sys.argv[2], 'wb').write(t[i:].replace(b'.version 9.0', b'.version 8.7', 1))
PY
    k=$(grep -q "cvt.rn.bf16x2" /tmp/h.ptx && echo bf16 || echo f16)
    $TB/ptxas -arch=sm_90a -v -o /tmp/h.cubin /tmp/h.ptx > $O/ptxas_$2_$k.log 2>&1; echo "ptxas $2 $k rc $?"
    $D -sass -fun cross_entropy_backward_index_held /tmp/h.cubin > $O/$2_$k.sass 2>&1
    grep -c '/\*[0-9a-f]\{4\}\*/' $O/$2_$k.sass
  done
  echo "$2: $n programs"
}
sass /tmp/plc cur
for e in knat kfold knf; do
  for d in bf16 f16; do
    L=$((420 - $(date +%s) + T0)); [ $L -gt 40 ] || break
    [ $e = kfold ] && [ $d = f16 ] && continue
    PLUMBLINE_KERNEL_DIR=$PWD/.gpu/$e PLUMBLINE_CACHE_DIR=/tmp/plc_$e timeout $L $P bench $B --baseline-plan opencl/kernels/softmax.plan --variant held --problem cross_entropy_bwd:b=2048,c=32000,dtype=$d > $O/${e}_$d.log 2>&1; echo "$e $d rc $?"
    tail -2 $O/${e}_$d.log | cut -c1-250
  done
  [ -d /tmp/plc_$e ] && sass /tmp/plc_$e $e
done
L=$((540 - $(date +%s) + T0)); echo "check --all with $L s"
[ $L -gt 20 ] && timeout $L $P check --all --device nvidia:0 --cases 4 > $O/all.log 2>&1; echo "all rc $?"; grep -c " pass " $O/all.log; grep -v " pass \|not checked" $O/all.log | tail -5
gzip $O/*.sass
