# Not run (stop 52: the device budget was spent): part1a.batch (part1's 16-bit GEMM lines but the gelu
# backwards) for the next stop. Run as: PARTS=part1a PART_TIMEOUT=250 bash next_call.sh
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/b2; mkdir -p $O
R=bench/results/h100-2026-11-28a/batch16
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for part in ${PARTS:-part1 part2}; do
  s=$(date +%s)
  timeout ${PART_TIMEOUT:-260} bash bench/side_by_side.sh .gpu/plumbline /tmp/$part python3 0.01 --batch $R/$part.batch > $O/$part.log 2>&1
  echo "== $part rc $? in $(( $(date +%s) - s )) s"
  cp /tmp/$part/side_by_side.md $O/$part.md 2>/dev/null && cut -d"|" -f2,3,10 $O/$part.md | cut -c1-40,90- | tail -n +3
done
