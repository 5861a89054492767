# Call 6 (stop 52): what bounds the joined step (0.177 ms; call 5's L2 prefetch of d_y changed nothing, so
# not d_y's latency alone)? The same step with relu's slope (a compare) against gelu_tanh's, by step; and
# ptxas -v on the program's PTX from plumbline's cache (Triton's ptxas 8.7, the version line set down).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/f6; mkdir -p $O
R=bench/results/h100-2026-11-28a/fused
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for b in relu bf16; do
  timeout 60 $P bench --device nvidia:0 --timing launch --repetitions 5 --min-time 0.05 --json /tmp/$b.json --batch $R/$b.batch > $O/steps_$b.log 2>&1
  echo "== $b by step (rc $?)"; python3 bench/steps.py /tmp/$b.json | tee -a $O/steps.txt
done
TB=/opt/torch/.venv/lib/python3.12/site-packages/triton/backends/nvidia/bin
f=$(grep -l "xgemm_mma_grad_pairs" -r /tmp/plc | head -1); echo "cache file: $f"
python3 - "$f" <<'PY'
import sys
t = open(sys.argv[1], 'rb').read(); i = t.index(b'.version')
open('/tmp/gp.ptx', 'wb').write(t[i:].replace(b'.version 9.0', b'.version 8.7', 1))
PY
$TB/ptxas -arch=sm_90a -v -o /tmp/gp.cubin /tmp/gp.ptx > $O/ptxas.log 2>&1; echo "ptxas rc $?"
grep -E "Compiling|registers|spill|smem" $O/ptxas.log | head -20
