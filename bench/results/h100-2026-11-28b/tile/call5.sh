# Call 5 (stop 53): call 4 put the joined step's epilogue at 0.090 ms of its 0.179 (run twice: 0.2685),
# some six times what its traffic (32 MiB read, 64 MiB written) and its arithmetic would take. Its SASS,
# to count what a row of the epilogue executes: the program's PTX from plumbline's cache, ptxas (Triton's,
# as stop 52's call 6), cuobjdump.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/t5; mkdir -p $O
F=bench/results/h100-2026-11-28a/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/b.json --batch $F/bf16.batch > $O/steps.log 2>&1
echo "== by step (rc $?)"; python3 bench/steps.py /tmp/b.json | tee -a $O/steps.txt
TB=/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/bin
ls $TB; command -v cuobjdump nvdisasm
f=$(grep -l "xgemm_mma_grad_pairs" -r /tmp/plc | head -1); echo "cache file: $f"
python3 - "$f" <<'PY'
import sys
t = open(sys.argv[1], 'rb').read(); i = t.index(b'.version')
open('/tmp/gp.ptx', 'wb').write(t[i:].replace(b'.version 9.0', b'.version 8.7', 1))
PY
cp /tmp/gp.ptx $O/
$TB/ptxas -arch=sm_90a -v -o /tmp/gp.cubin /tmp/gp.ptx > $O/ptxas.log 2>&1; echo "ptxas rc $?"
D=$(command -v cuobjdump || echo $TB/cuobjdump)
$D -sass -fun xgemm_mma_grad_pairs /tmp/gp.cubin > $O/grad_pairs.sass 2>&1 || $D -sass /tmp/gp.cubin > $O/all.sass 2>&1
wc -l $O/*.sass
tar -C $OUT -czf $OUT/t5.tgz t5 && rm -rf $O
