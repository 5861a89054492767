# The final kernels and tuning entries: every variant and tuned instance of the changed operators.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=/tmp/f; mkdir -p $R; trap 'tar czf $OUT/f.tgz -C /tmp f' EXIT
P="stdbuf -oL -eL .gpu/plumbline"; D="--device nvidia:0"
for op in softmax log_softmax cross_entropy_bwd group_norm_bwd; do
  timeout 100 $P check $op --cases 60 --seed 33 $D > $R/check_$op.log 2>&1; echo "check $op exit $?"
done
timeout 100 $P check softmax --variant resident --problem softmax:m=3,n=50257,dtype=bf16 --values edge $D > $R/check_vocab_edge.log 2>&1; echo "vocab edge exit $?"
grep -h "pass\|FAIL" $R/*.log
