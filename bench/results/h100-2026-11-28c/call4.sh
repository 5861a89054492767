# Call 4 (stop 54): `held` as it lands (REG_QUADS=0: call 3's nine quads in registers were slower; one
# reciprocal a row, call 3's recip form), ahead of `quads` for f16 and bf16, on both 4096 x 32000 problems.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c4; mkdir -p $O
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 150 $P bench --device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --json $O/held.json \
  --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1
echo "held rc $?"; grep "@nvidia\|peaks" $O/held.log | cut -c1-170
tar -C $OUT -czf $OUT/c4.tgz c4 && rm -rf $O
