# Call 5 (2026-11-29, H200): softmax's and log_softmax's new `held` variants (softmax_held.cl, 16 bits):
# checked on the GPU, then timed by --variant over 2048 x 32000 in bf16 and f16 (call 4 timed `resident`
# there: 38-43% of the copy). Files straight into $OUT (the fetch takes few).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
P=$PWD/.gpu/plumbline
for op in softmax log_softmax; do
  timeout 30 $P check $op --variant held --device nvidia:0 --cases 8 > $OUT/c5_check_$op.log 2>&1; echo "check $op rc $?"; tail -1 $OUT/c5_check_$op.log | cut -c1-160
done
for op in softmax log_softmax; do
  timeout 55 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.01 --variant held --json $OUT/c5_$op.json \
    --problem $op:m=2048,n=32000,dtype=bf16 --problem $op:m=2048,n=32000,dtype=f16 > $OUT/c5_$op.log 2>&1; echo "bench $op rc $?"
  grep "@nvidia" $OUT/c5_$op.log | cut -c1-200
  python3 bench/results/h100-2026-11-28c/copy_share.py $OUT/c5_$op.json
done
