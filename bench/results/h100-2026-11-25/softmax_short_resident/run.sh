# Short softmax rows held in registers: the `resident` kernels (read once) at short-row sizes, from a
# plan copy without resident's `when n >= 4096`, against what serves them today (quads, short class).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
B=$PWD/.gpu/plumbline
R=/tmp/r; rm -rf $R; mkdir -p $R
for op in softmax log_softmax; do
  for p in $op:m=32768,n=512 $op:m=65536,n=256; do
    echo "== $p today"; timeout 40 $B bench --problem $p --device nvidia:0 --repetitions 9 --min-time 0.01 2>&1 | grep "@nvidia" | cut -c1-140
    for d in ROW_WG=32,ROW_QUADS=4 ROW_WG=64,ROW_QUADS=2 ROW_WG=32,ROW_QUADS=2 ROW_WG=128,ROW_QUADS=1 ROW_WG=64,ROW_QUADS=1; do
      echo "== $p resident $d"; timeout 40 $B bench --problem $p --device nvidia:0 --repetitions 9 --min-time 0.01 --plan .gpu/res/kernels/softmax.plan --variant resident --define $d 2>&1 | grep "@nvidia\|rror" | cut -c1-140
    done
  done
done > $R/short.log 2>&1
cat $R/short.log
tar czf $OUT/r.tgz -C /tmp r
