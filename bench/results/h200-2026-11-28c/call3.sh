# Call 3 (stop 57, H200): issue 15's memory-bound list beside PyTorch at 4b32aa2, the H200's first
# such table (rows, elementwise, pooling and unet_groupnorm batches, one run each, ours checked first),
# with each line's share of the copy bandwidth; then ptxas's registers and local memory for every
# kernel those runs built (the program cache's PTX through Triton's ptxas), to find the kernels whose
# registers, not local memory, set how many work-groups share a multiprocessor (MAX_REGISTERS).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c3; mkdir -p $O
P=$PWD/.gpu/plumbline
T0=$(date +%s)
left() { echo $(($1 - $(date +%s) + T0)); }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout $(left 370) bash bench/side_by_side.sh $P $O/sbs python3 0.01 --batch bench/batches/rows.batch --batch bench/batches/elementwise.batch --batch bench/batches/pooling.batch --batch bench/batches/unet_groupnorm.batch > $O/sbs.log 2>&1
echo "sbs rc $?"
for j in $O/sbs/*/ours.json; do python3 bench/results/h100-2026-11-28c/copy_share.py $j; done > $O/share.txt 2>&1
cat $O/sbs/side_by_side.md 2>/dev/null | cut -c1-200
TB=/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/bin
for f in /tmp/plc/*; do
  [ $(left 440) -gt 5 ] || break
  python3 - "$f" /tmp/s.ptx <<'PY' || continue
import sys
t = open(sys.argv[1], 'rb').read(); i = t.find(b'.version')
if i < 0: sys.exit(1)
open(sys.argv[2], 'wb').write(t[i:].replace(b'.version 9.0', b'.version 8.7', 1))
PY
  $TB/ptxas -arch=sm_90a -v -o /tmp/s.cubin /tmp/s.ptx 2>&1 | grep -E "Compiling entry|Used" | paste - - | sed -E "s/.*entry function '([^']*)'.*Used ([0-9]+) registers.*[^0-9]([0-9]+) bytes smem.*/\1 \2 \3/"
done | sort -u > $O/registers.txt
wc -l $O/registers.txt
cd $OUT && tar -czf c3.tgz c3 && rm -rf c3
