# Call 2 (stop 50): side by side with PyTorch, three times in a row, of stop 49's two 16-bit conv lines
# that read just past 2x once, the 1x1 backward-weight layer of stop 49, and the gelu backwards with the
# new slope (the working tree).
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
O=$OUT/s2; mkdir -p $O
R=bench/results/h100-2026-11-27g/slope
P=.gpu/plumbline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $O/gpu.log
for i in 1 2 3; do
  timeout 170 bash bench/side_by_side.sh $P /tmp/sbs$i python3 0.01 --batch $R/near2x.batch > /tmp/sbs$i.log 2>&1 || echo "rc $? run $i"
  cp /tmp/sbs$i/side_by_side.md $O/sbs$i.md 2>/dev/null
  echo "== run $i"; grep -E "conv2d|gemm_bias|act_bwd" /tmp/sbs$i/side_by_side.md | cut -d"|" -f2,3,7,10 | cut -c1-220
done
