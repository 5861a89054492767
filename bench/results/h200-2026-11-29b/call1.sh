# Call 1 (2026-11-29, H200): ResNet-50's convolutions (bench/batches/resnet50_conv.batch, every float32
# line, split by direction so that a cut-off loses one part) beside PyTorch: issue 15's "no kernel of the
# project below 0.5x PyTorch" on the H200, the first project-wide conv run since stop 38's on the H100.
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_CACHE_DIR=/tmp/plc PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels
R=bench/results/h200-2026-11-29b
O=$OUT/c1; mkdir -p $O
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/gpu.txt 2>&1
timeout 570 bash bench/side_by_side.sh $PWD/.gpu/plumbline $O/sbs python3 0.01 --check-budget 1e8 --batch $R/fwd.batch --batch $R/data.batch --batch $R/weight.batch > $O/sbs.log 2>&1; echo "sbs rc $?"
grep -E "^\|" $O/sbs/side_by_side.md | awk -F'|' 'NR<=2 || 1' | cut -c1-200 | head -90
cd $OUT && tar -czf c1.tgz c1 && rm -rf c1
