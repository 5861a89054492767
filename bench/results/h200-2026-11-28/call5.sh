# Call 5 (stop 55, H200, the session's last ~250 s): held's outputs with the one-hot's compares only in
# the quad that holds the target (held_grad4; the same bits), checked, then paired against a92f1b4's
# kernels (.gpu/kbase3); then every operator's check with this binary and these kernels, with the time left.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/c5; mkdir -p $O
P=.gpu/plumbline
T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for p in b=7,c=32000,dtype=bf16 b=5,c=32001,dtype=f16 b=3,c=50257,dtype=bf16 b=4,c=4097,dtype=bf16; do
  timeout 30 $P check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:$p --values edge 2>&1 | tail -1 | sed "s/^/$p edge: /" | tee -a $O/check.log
done
timeout 40 $P check cross_entropy_bwd --variant held --device nvidia:0 --cases 30 2>&1 | tail -1 | tee -a $O/check.log
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
for d in bf16 f16; do
  L=$((150 - $(date +%s) + T0)); [ $L -gt 40 ] || break
  timeout $L $P bench $B --baseline-plan .gpu/kbase3/softmax.plan --variant held --problem cross_entropy_bwd:b=4096,c=32000,dtype=$d > $O/held_$d.log 2>&1; echo "held $d rc $?"
  tail -2 $O/held_$d.log | cut -c1-250
done
L=$((225 - $(date +%s) + T0)); echo "check --all with $L s"
[ $L -gt 20 ] && timeout $L $P check --all --device nvidia:0 --cases 4 > $O/all.log 2>&1; echo "all rc $?"; grep -c " pass " $O/all.log; grep -v " pass \|not checked" $O/all.log | tail -5
