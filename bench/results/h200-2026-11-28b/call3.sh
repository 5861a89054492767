# Call 3 (stop 56, H200): b87879d's bit-identical cuts in the softmax family (exp_terms without a select
# a value; bf16 quads unpacked two instructions a pair), paired against HEAD~1's kernels (.gpu/kbase4):
# held bf16 and f16 on 2048 x 32000, then the other kernels on exp_terms (softmax resident f32 and
# bf16, cross_entropy quads bf16); the softmax family's checks on NVIDIA (edge values included); held's
# SASS again; the 16-bit cross_entropy_bwd lines by stream with the copy share.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c3; mkdir -p $O
P=.gpu/plumbline
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
for p in cross_entropy_bwd:b=2048,c=32000,dtype=bf16 cross_entropy_bwd:b=2048,c=32000,dtype=f16 softmax:m=2048,n=32000 softmax:m=2048,n=32000,dtype=bf16 cross_entropy:b=4096,c=32000,dtype=bf16; do
  L=$((230 - $(date +%s) + T0)); [ $L -gt 30 ] || break
  timeout $L $P bench $B --baseline-plan .gpu/kbase4/softmax.plan --problem $p >> $O/pairs.log 2>&1; echo "$p rc $?"
  grep "ratio" $O/pairs.log | tail -1 | cut -c1-220
done
for op in softmax log_softmax cross_entropy cross_entropy_bwd; do
  timeout 40 $P check $op --device nvidia:0 --cases 8 2>&1 | tail -1 | tee -a $O/check.log
done
for p in b=7,c=32000,dtype=bf16 b=5,c=32001,dtype=f16 b=3,c=50257,dtype=bf16 b=4,c=4097,dtype=bf16; do
  timeout 30 $P check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:$p --values edge 2>&1 | tail -1 | sed "s/^/$p edge: /" | tee -a $O/check.log
done
timeout 30 $P check softmax --variant resident --device nvidia:0 --problem softmax:m=3,n=32001,dtype=bf16 --values edge 2>&1 | tail -1 | tee -a $O/check.log
timeout 30 $P check cross_entropy --variant quads --device nvidia:0 --problem cross_entropy:b=3,c=32001,dtype=bf16 --values edge 2>&1 | tail -1 | tee -a $O/check.log
TB=/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/bin
D=$(command -v cuobjdump || echo $TB/cuobjdump)
for f in $(grep -l "cross_entropy_backward_index_held" -r /tmp/plc); do
  python3 - "$f" /tmp/h.ptx <<'PY'
import sys
t = open(sys.argv[1], 'rb').read(); i = t.index(b'.version')
open(sys.argv[2], 'wb').write(t[i:].replace(b'.version 9.0', b'.version 8.7', 1))
PY
  grep -q "cvt.rn.bf16x2" /tmp/h.ptx || continue
  $TB/ptxas -arch=sm_90a -v -o /tmp/h.cubin /tmp/h.ptx > /tmp/ptxas.log 2>&1
  n=$((${n:-0} + 1)); $D -sass -fun cross_entropy_backward_index_held /tmp/h.cubin > $O/held_bf16_$n.sass 2>&1; cp /tmp/ptxas.log $O/ptxas_$n.log
done  # the new kernels' program and kbase4's: told apart by their unpacking
L=$((400 - $(date +%s) + T0)); echo "stream with $L s"
[ $L -gt 60 ] && timeout $L $P bench $B --json $O/held.json --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1; echo "held rc $?"
python3 bench/results/h100-2026-11-28c/copy_share.py $O/held.json | tee $O/share.txt
cd $OUT && tar -czf c3.tgz c3 && rm -rf c3
