# Call 3 (stop 55, H200): f16's pairs through cvt.rn.f16x2.f32 (storage.h's pair_bits and ST4 under
# FEATURE_NVIDIA_SM80, as bf16's in call 2), checked on every operator, then paired against 2f0df01's
# kernels (.gpu/kbase2: bf16's cvt, f16's vstore_half); then the 16-bit cross-entropy lines beside PyTorch.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
R=bench/results/h200-2026-11-28
O=$OUT/c3; mkdir -p $O
P=.gpu/plumbline
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for p in b=5,c=32001,dtype=f16 b=9,c=23553,dtype=f16 b=6,c=50257,dtype=f16; do for v in edge normal; do
  timeout 60 $P check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:$p --values $v 2>&1 | tail -1 | sed "s/^/$p $v: /" | tee -a $O/check.log
done; done
timeout 150 $P check --all --device nvidia:0 --cases 6 > $O/all.log 2>&1; echo "all rc $?"; grep -c " pass " $O/all.log; grep -v " pass \|not checked" $O/all.log | tail -8
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
timeout 120 $P bench $B --json $O/held.json --baseline-plan .gpu/kbase2/softmax.plan --variant held --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1; echo "held rc $?"
tail -2 $O/held.log | cut -c1-250
timeout 60 $P bench $B --json $O/gemm.json --baseline-plan .gpu/kbase2/gemm.plan --variant wgmma --problem gemm_bias_act:m=4096,k=1024,n=4096,act=gelu_tanh,dtype=f16 > $O/gemm.log 2>&1; echo "gemm rc $?"
tail -2 $O/gemm.log | cut -c1-250
L=$((560 - $(date +%s) + T0)); echo "side by side with $L s"
timeout $L bash bench/side_by_side.sh .gpu/plumbline /tmp/sbs python3 0.01 --batch $R/ce16.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
cp /tmp/sbs/*.md /tmp/sbs/*.json /tmp/sbs/*.log $O/ 2>/dev/null; cat /tmp/sbs/*.md 2>/dev/null | tail -8 | cut -c1-220
tar -C $OUT -czf $OUT/c3.tgz c3 && rm -rf $O
