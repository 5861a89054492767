# Call 1 (stop 53): wgmma_split_pairs has no tuned entry; its three GEMM steps share the plan's defines
# (128 x 128 x 32, 3 stages, as wgmma_split's). A sweep of tiles and stages by step on the bf16 gelu
# backward, each form through a copy of opencl/kernels whose pairs variant has other defines (bench checks
# each before it times it). Which step gains from which form says whether the steps want defines of their own.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t1; mkdir -p $O
R=bench/results/h100-2026-11-28b/tile
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
s0=$(date +%s)
# name MWG NWG KWG MWARPS STAGES WG_PENDING STAGED
while read name mwg nwg kwg mw st wp sg; do
  [ $(( $(date +%s) - s0 )) -gt 330 ] && { echo "skip $name (time)"; continue; }
  d=/tmp/sw/$name; mkdir -p $d; cp opencl/kernels/* $d/
  python3 - $d/gemm.plan $mwg $nwg $kwg $mw $st $wp $sg <<'PY'
import sys
p, mwg, nwg, kwg, mw, st, wp, sg = sys.argv[1:]
t = open(p).read()
head = "variant wgmma_split_pairs"
i = t.index(head); j = t.index("\n  define ", i) + 1; e = t.index("\n", j)
t = t[:j] + f"  define MWG={mwg} NWG={nwg} KWG={kwg} MWARPS={mw} NWARPS=1 ASYNC=1 STAGES={st} WGMMA=1 WG_PENDING={wp} STAGED={sg}" + t[e:]
open(p, "w").write(t)
PY
  timeout 60 $P bench --device nvidia:0 --plan $d/gemm.plan --variant wgmma_split_pairs --timing launch --repetitions 5 --min-time 0.05 \
    --json /tmp/$name.json --batch $R/../../h100-2026-11-28a/fused/bf16.batch > $O/$name.log 2>&1
  rc=$?
  echo "$name $mwg/$nwg/$kwg mw$mw s$st wp$wp staged$sg rc $rc: $(python3 bench/steps.py /tmp/$name.json 2>/dev/null | sed 's/.*sampled check//')" | tee -a $O/sweep.txt
done <<'LIST'
c0 128 128 32 8 3 0 1
c4 128 256 16 8 4 0 1
c5 128 256 16 8 3 0 1
c8 128 64 32 8 4 0 1
c9 64 128 32 4 4 0 1
c10 64 256 16 4 4 0 1
c1 128 128 32 8 3 1 1
c2 128 128 16 8 6 1 1
c3 128 128 16 8 4 0 1
c6 128 256 16 8 4 1 1
c11 128 128 32 8 3 0 0
c0b 128 128 32 8 3 0 1
LIST
grep -hE "FAIL|error|invalid" $O/*.log | sort | uniq -c | head
