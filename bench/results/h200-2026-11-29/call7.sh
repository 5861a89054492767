# Call 7 (2026-11-29, H200, the session's last device time): the 16-bit cross_entropy_bwd lines beside
# PyTorch with held's new default FAST_EXP=1 (the plan, no --define; the H200's held entry names no
# FAST_EXP, so the plan's applies over it).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
O=$OUT/c7; mkdir -p $O
timeout 170 bash bench/side_by_side.sh $PWD/.gpu/plumbline $O/sbs python3 0.05 --problem cross_entropy_bwd:b=4096,c=32000,dtype=bf16 --problem cross_entropy_bwd:b=4096,c=32000,dtype=f16 > $O/sbs.log 2>&1; echo "sbs rc $?"
cut -c1-220 $O/sbs/side_by_side.md 2>/dev/null; grep "@nvidia" $O/sbs/ours.log | cut -c1-200
python3 bench/results/h100-2026-11-28c/copy_share.py $O/sbs/ours.json
cd $OUT && tar -czf c7.tgz c7 && rm -rf c7
