# Why the backward's GEMMs run 3-8% slower than matmul on the same shapes and tiles: registers,
# spills and instruction mix of each entry, from the PTX in plumbline's program cache (ptxas, cuobjdump).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R /tmp/plc; mkdir -p $R/ptx
cat > $R/p.batch <<'B2'
gemm_bias_act_bwd:m=4096,k=1024,n=4096,act=gelu_tanh
matmul:m=4096,k=1024,n=4096
matmul:m=4096,k=4096,n=1024,tb=1
B2
timeout 120 $B bench --batch $R/p.batch --device nvidia:0 --repetitions 3 --min-time 0.01 > $R/bench.log 2>&1
grep "@nvidia" $R/bench.log | cut -c1-100
PTXAS=$(command -v ptxas || ls /usr/local/cuda*/bin/ptxas 2>/dev/null | head -1); CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
echo "ptxas: $PTXAS cuobjdump: $CUOBJ"
python3 - <<'PY'
import os, glob
for i, f in enumerate(sorted(glob.glob('/tmp/plc/**/*', recursive=True))):
    if not os.path.isfile(f): continue
    d = open(f, 'rb').read(); k = d.find(b'\0')
    if k < 0: continue
    body = d[k+1:]
    if b'.entry' in body[:2000000] and (b'xgemm' in body):
        open(f'/tmp/r/ptx/p{i}.ptx', 'wb').write(body.split(b'\0')[0])
PY
for f in $R/ptx/*.ptx; do
  $PTXAS -v -arch=sm_90 $f -o ${f%.ptx}.cubin 2>&1 | grep -E "Compiling entry|registers|spill" | grep -B1 -A1 "xgemm" | sed 's/ptxas info    ://' >> $R/ptxas.log
  $CUOBJ -sass ${f%.ptx}.cubin > ${f%.ptx}.sass 2>/dev/null
  python3 - ${f%.ptx}.sass >> $R/mix.log <<'PY'
import sys, re, collections
fn=None; c=collections.Counter()
def out():
    if fn and 'xgemm' in fn: print(fn, 'total', sum(c.values()), ' '.join(f'{k}={c[k]}' for k in ('FFMA','LDS','LDG','STS','BAR','BRA','ISETP','IMAD','LEA')))
for line in open(sys.argv[1]):
    m=re.search(r'Function : (\S+)', line)
    if m: out(); fn=m.group(1); c=collections.Counter(); continue
    m=re.search(r'/\*[0-9a-f]{4}\*/\s+(@!?P\d\s+)?([A-Z0-9]+)', line)
    if m: c[m.group(2).split('.')[0]]+=1
out()
PY
done
cat $R/ptxas.log; cat $R/mix.log
rm -f $R/ptx/*.cubin; tar czf $OUT/r.tgz -C /tmp r
