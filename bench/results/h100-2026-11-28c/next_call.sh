# For the next stop (written in stop 54, not run: the device budget was spent). cross_entropy_bwd's
# `held` ran on the H100 only through bench's checks (docs/devices.md, stop 54): first the check run of
# its own, random cases and the widths that stream past the slots on edge values; then a tune of its
# defines on both 4096 x 32000 problems (it has no entry: the plan's defaults); then the 50257-wide
# vocabulary against quads (one problem a run: the host's check takes ~40 s a problem).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/n1; mkdir -p $O
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
timeout 120 $P check cross_entropy_bwd --variant held --device nvidia:0 --cases 60 > $O/check.log 2>&1; echo "check rc $?"; tail -1 $O/check.log
for p in b=7,c=32000,dtype=bf16 b=5,c=32001,dtype=f16 b=3,c=50257,dtype=bf16 b=9,c=23553,dtype=f16; do for v in edge normal; do
  timeout 60 $P check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:$p --values $v 2>&1 | tail -1 | sed "s/^/$p $v: /" | tee -a $O/check.log
done; done
timeout 260 $P tune cross_entropy_bwd --variant held --device nvidia:0 --budget 200 --json $O/tune.json \
  --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/tune.log 2>&1
echo "tune rc $?"; tail -4 $O/tune.log | cut -c1-300; cp opencl/tuning/nvidia-h100-80gb-hbm3.tuning $O/
tar -C $OUT -czf $OUT/n1.tgz n1 && rm -rf $O
# Then (a call of its own): cross_entropy_bwd:b=8192,c=50257,dtype=bf16 with --variant held and --variant quads,
# and bf16's stores: storage.h's float_to_bf16 rounds in integer arithmetic, sm_80's cvt.rn.bf16x2.f32 is
# one instruction for two values (the likely gap between bf16's 67% and f16's 72% of the copy bandwidth):
#   d=/tmp/cvt; cp -r opencl/kernels $d; python3 bench/results/h100-2026-11-28c/held_forms.py $d cvt
#   $P bench --device nvidia:0 --plan $d/softmax.plan --variant held --timing stream --repetitions 9 \
#     --min-time 0.05 --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16   (against the same without the form)
