# Call 5 (stop 51): xgemm_mma_halves stays ~10% slower than xgemm_mma on the same inputs (call 4: 0.155,
# 0.150 against 0.140, 0.130 ms) with no state carried. What the compiler made of each: the programs of
# diag_call4.plan's two variants from plumbline's cache (PTX), through ptxas -v (registers, spills) and
# their SASS (the main loop's instructions), with the ptxas and nvdisasm that ship with PyTorch's Triton.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc5
O=$OUT/p5; mkdir -p $O
R=bench/results/h100-2026-11-27h/pairs
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 60 $P check gemm_bias_act_bwd --plan $R/diag_call4.plan --device nvidia:0 --problem gemm_bias_act_bwd:m=1024,k=64,n=1024,act=gelu_tanh,dtype=bf16 2>&1 | tail -2
TB=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))" 2>/dev/null)
PTXAS=$(ls $TB/backends/nvidia/bin/ptxas 2>/dev/null || command -v ptxas || find / -name ptxas -type f 2>/dev/null | head -1)
DIS=$(ls $TB/backends/nvidia/bin/nvdisasm 2>/dev/null || command -v nvdisasm || find / -name nvdisasm -type f 2>/dev/null | head -1)
OBJ=$(ls $TB/backends/nvidia/bin/cuobjdump 2>/dev/null || command -v cuobjdump || find / -name cuobjdump -type f 2>/dev/null | head -1)
echo "ptxas=$PTXAS nvdisasm=$DIS cuobjdump=$OBJ"
ls -la /tmp/plc5 | head
cd /tmp/plc5
for f in *; do
  python3 - "$f" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
i = b.find(b'.version')
if i < 0: sys.exit()
ptx = b[i:].split(b'\0')[0]
names = [w for w in (b'.entry xgemm_mma_halves', b'.entry xgemm_mma(') if w in ptx]
if names: open(('halves' if b'halves' in names[0] else 'plain') + '.ptx', 'wb').write(ptx)
PY
done
ls -la *.ptx
for v in plain halves; do
  $PTXAS -arch=sm_90a -v -o $v.cubin $v.ptx > $O/ptxas_$v.log 2>&1; grep -E "registers|spill|Used" $O/ptxas_$v.log | head -20
  if [ -n "$OBJ" ]; then $OBJ -sass $v.cubin > $O/sass_$v.txt 2>&1; else $DIS $v.cubin > $O/sass_$v.txt 2>&1; fi
  wc -l $O/sass_$v.txt
done
cp plain.ptx halves.ptx $O/ 2>/dev/null
cd $OUT && tar czf p5.tgz p5 && rm -rf p5
