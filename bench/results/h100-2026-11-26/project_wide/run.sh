#!/usr/bin/env bash
# One device call of the project-wide side-by-side (issue 15: "no kernel of the project below 0.5x
# PyTorch"): our kernels over the given batches, each checked first, then PyTorch on the same problems.
# usage (on the GPU machine, repository root): bash bench/results/h100-2026-11-26/project_wide/run.sh NAME BATCH...
set -u
echo /usr/local/nvidia/lib64/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export LD_LIBRARY_PATH=$PWD/.gpu PLUMBLINE_TUNING_DIR=$PWD/opencl/tuning PLUMBLINE_KERNEL_DIR=$PWD/opencl/kernels PLUMBLINE_CACHE_DIR=/tmp/plc
name=$1; shift
out=$OUT/$name
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv > "$out/gpu.txt" 2>&1
args=()
for b in "$@"; do args+=(--batch "$b"); done
start=$(date +%s)
timeout "${LIMIT:-540}" bash bench/side_by_side.sh .gpu/plumbline "$out" python3 0.01 --check-budget 1e8 "${args[@]}"
echo "side_by_side exit $? at $(( $(date +%s) - start )) s" | tee "$out/summary.txt"
