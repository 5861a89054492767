# Call 2 (stop 53): call 1 found the plan's 128 x 128 x 32, 3 stages, the best of 11 forms for all three
# GEMM steps. At ~490 TFLOP/s the halves' GEMMs move ~7.7 TB/s of slabs from L2 (4 MiB a 128 x 128 tile
# over a depth of 8192, 256 tiles in 0.14 ms): 256 x 128 tiles (4 warpgroups, 64 accumulators a
# work-item, one work-group a multiprocessor) read a quarter less a product.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t2; mkdir -p $O
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
e1 256 128 16 16 4 0 1
e2 256 128 16 16 4 1 1
e3 256 128 16 16 3 1 1
e4 256 128 32 16 2 0 1
e5 256 128 16 16 3 0 1
c0b 128 128 32 8 3 0 1
LIST
grep -hE "FAIL|error|invalid" $O/*.log | sort | uniq -c | head
tar -C $OUT -czf $OUT/t2.tgz t2 && rm -rf $O
