# Call 6 (2026-11-29, H200): cross_entropy_bwd's `held` with FAST_EXP=1 (its exponentials as
# native_exp2(x * log2 e): a multiply and one MUFU.EX2 where exp takes about eight instructions), checked
# on the GPU, then timed by --variant against FAST_EXP=0 over 4096 x 32000 in bf16 and f16.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c6; mkdir -p $O
P=$PWD/.gpu/plumbline
timeout 70 $P check cross_entropy_bwd --variant held --define FAST_EXP=1 --device nvidia:0 --cases 32 --json $O/check.json > $O/check.log 2>&1; echo "check rc $?"; tail -1 $O/check.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05 --variant held"
Q="--problem cross_entropy_bwd:b=4096,c=32000,labels=index,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,labels=index,dtype=f16"
for f in 1 0; do
  timeout 120 $P bench $B --define FAST_EXP=$f --json $O/fast$f.json $Q > $O/fast$f.log 2>&1; echo "FAST_EXP=$f rc $?"
  grep "@nvidia" $O/fast$f.log | cut -c1-200
  python3 bench/results/h100-2026-11-28c/copy_share.py $O/fast$f.json | tee -a $O/share.txt
done
cd $OUT && tar -czf c6.tgz c6 && rm -rf c6
