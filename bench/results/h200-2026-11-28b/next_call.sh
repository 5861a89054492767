# For the next stop (written in stop 56, not run: the device time was spent). (1) the host side of a
# full check on the GPU machine's 16 cores: 4db69b8's parallel references, models, comparison and
# 16-bit conversions against 5191c2a's binary (.gpu/plumbline_5191c2a), the same check, wall time and
# the same verdict; (2) the pair call 3 could not finish (cross_entropy bf16, b87879d against
# .gpu/kbase4); (3) the 16-bit cross_entropy_bwd by stream, on an H100 if one is lent (stop 54's 67%
# and 72% were before the cvt, held_grad4 and b87879d).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/n1; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
C="check cross_entropy_bwd --variant held --device nvidia:0 --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --values normal"
for b in plumbline_5191c2a plumbline; do
  /usr/bin/time -f "$b %e s wall %U s user" timeout 120 .gpu/$b $C --json $O/check_$b.json 2>&1 | tail -2 | tee -a $O/host_check.log
done
B="--device nvidia:0 --timing stream --repetitions 9 --min-time 0.05"
timeout 150 .gpu/plumbline bench $B --baseline-plan .gpu/kbase4/softmax.plan --problem cross_entropy:b=4096,c=32000,dtype=bf16 > $O/ce_pair.log 2>&1; tail -2 $O/ce_pair.log
timeout 150 .gpu/plumbline bench $B --json $O/held.json --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/held.log 2>&1
python3 bench/results/h100-2026-11-28c/copy_share.py $O/held.json
