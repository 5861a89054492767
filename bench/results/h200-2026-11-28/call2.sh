# Call 2 (stop 55, H200): the two forms landing, checked, then timed. storage.h's bf16 pairs through
# cvt.rn.bf16x2.f32 (FEATURE_NVIDIA_SM80, every bf16 kernel's ST4/ST2/pair_bits) and held's slots filled
# by cp.async, all of a work-item's in flight at once (HELD_ASYNC=1). Paired against 91ae965's kernels
# (.gpu/kbase: integer rounding, slots through registers), HELD_ASYNC=0 to tell the two apart, and the
# bf16 GEMM whose epilogue stores pairs. Then every operator's check on the H200 with the time left.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h200-2026-11-28
O=$OUT/c2; mkdir -p $O
P=.gpu/plumbline
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 100 $P check cross_entropy_bwd --variant held --device nvidia:0 --cases 40 > $O/check.log 2>&1; echo "check rc $?"; tail -1 $O/check.log
for p in b=7,c=32000,dtype=bf16 b=5,c=32001,dtype=f16 b=3,c=50257,dtype=bf16 b=9,c=23553,dtype=f16 b=4,c=4097,dtype=bf16 b=6,c=50257,dtype=f16; do for v in edge normal; do
  timeout 60 $P check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:$p --values $v 2>&1 | tail -1 | sed "s/^/$p $v: /" | tee -a $O/check.log
done; done
timeout 60 $P check cross_entropy_bwd --variant held --device nvidia:0 --define HELD_QUADS=2,REG_QUADS=2,ROW_WG=32 --cases 24 --seed 5 2>&1 | tail -1 | sed "s/^/past slots: /" | tee -a $O/check.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
timeout 200 $P bench $B --json $O/held.json --baseline-plan .gpu/kbase/softmax.plan --variant held --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1; echo "held rc $?"
tail -4 $O/held.log | cut -c1-250
timeout 80 $P bench $B --json $O/noasync.json --variant held --define HELD_ASYNC=0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 > $O/noasync.log 2>&1; echo "noasync rc $?"
python3 bench/results/h100-2026-11-28c/copy_share.py $O/held.json $O/noasync.json | tee $O/share.txt
timeout 80 $P bench $B --json $O/gemm.json --baseline-plan .gpu/kbase/gemm.plan --variant wgmma --problem gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=bf16 > $O/gemm.log 2>&1; echo "gemm rc $?"
tail -3 $O/gemm.log | cut -c1-250
L=$((540 - $(date +%s) + T0)); echo "check --all with $L s"
[ $L -gt 30 ] && timeout $L $P check --all --device nvidia:0 --cases 6 > $O/all.log 2>&1; echo "all rc $?"; grep -c " pass " $O/all.log; grep -v " pass \|not checked" $O/all.log | tail -8
tar -C $OUT -czf $OUT/c2.tgz c2 && rm -rf $O
