# Call 1 (stop 57, H200): held's write phase and its registers. ptxas gave held 80 registers (stop 56,
# h200-2026-11-28b run3/ptxas_*.log): 256 x 80 a work-group lets a multiprocessor hold three, where its
# 48 KiB of local memory allow four. Candidates, each paired against HEAD's kernels (.gpu/kbase5) on
# 2048 x 32000 bf16 and f16: kA (the tail past the slots reread QUAD_UNROLL quads a round trip, where
# each quad waited its own), kR64 (HEAD's kernels with MAX_REGISTERS=64: `.maxnreg 64` in the PTX),
# kAR64 (both), kAR64w (both at 512 work-items, 11 slots each). Then ptxas's registers and spills of
# each program in the cache; the edge-value checks under kAR64; 4096 x 32000 by stream with the copy
# share; the host side of a full check against 5191c2a's binary (stop 56's next_call.sh).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c1; mkdir -p $O
P=$PWD/.gpu/plumbline
T0=$(date +%s)
left() { echo $(($1 - $(date +%s) + T0)); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
for k in kA kAR64 kR64 kAR64w; do
  for dt in bf16 f16; do
    L=$(left 330); [ $L -gt 25 ] || break
    PLUMBLINE_KERNEL_DIR=$PWD/.gpu/$k timeout $L $P bench $B --baseline-plan .gpu/kbase5/softmax.plan --problem cross_entropy_bwd:b=2048,c=32000,dtype=$dt >> $O/pairs_$k.log 2>&1
    echo "$k $dt rc $? $(grep -i 'ratio' $O/pairs_$k.log | tail -1 | cut -c1-200)" | tee -a $O/pairs.txt
  done
done
TB=/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/bin
D=$(command -v cuobjdump || echo $TB/cuobjdump)
n=0
for f in $(grep -l "cross_entropy_backward_index_held" -r /tmp/plc); do
  n=$((n + 1))
  python3 - "$f" /tmp/h.ptx <<'PY'
import sys
t = open(sys.argv[1], 'rb').read(); i = t.index(b'.version')
open(sys.argv[2], 'wb').write(t[i:].replace(b'.version 9.0', b'.version 8.7', 1))
PY
  { head -c 300 $f | tr -c '[:print:]\n' ' ' | grep -o "\-DROW_WG[^ ]*\|-DMAX_REG[^ ]*\|-DREAL[^ ]*" | tr '\n' ' '; grep -c maxnreg /tmp/h.ptx; grep -c "cvt.rn.bf16x2\|bf16" /tmp/h.ptx; $TB/ptxas -arch=sm_90a -v -o /tmp/h.cubin /tmp/h.ptx 2>&1 | grep -i "registers\|spill"; } > $O/ptxas_$n.log 2>&1
  cp /tmp/h.ptx $O/held_$n.ptx; gzip $O/held_$n.ptx
done
export PLUMBLINE_KERNEL_DIR=$PWD/.gpu/kAR64
for p in b=7,c=32000,dtype=bf16 b=5,c=32001,dtype=f16 b=3,c=50257,dtype=bf16 b=4,c=4097,dtype=bf16; do
  timeout 30 $P check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:$p --values edge 2>&1 | tail -1 | sed "s/^/kAR64 $p edge: /" | tee -a $O/check.log
done
for k in kbase5 kA kAR64; do
  L=$(left 520); [ $L -gt 40 ] || break
  PLUMBLINE_KERNEL_DIR=$PWD/.gpu/$k timeout $L $P bench $B --json $O/held_$k.json --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held_$k.log 2>&1; echo "$k stream rc $?"
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/held_$k.json | sed "s/^/$k /" | tee -a $O/share.txt
done
export PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
C="check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --values normal"
for b in plumbline_5191c2a plumbline; do
  L=$(left 585); [ $L -gt 10 ] || break
  /usr/bin/time -f "$b %e s wall %U s user" timeout $L .gpu/$b $C --json $O/check_$b.json 2>&1 | tail -2 | tee -a $O/host_check.log
done
cd $OUT && tar -czf c1.tgz c1 && rm -rf c1
