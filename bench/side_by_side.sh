#!/usr/bin/env bash
# The GPU side-by-side, one command, one run: our kernels on NVIDIA's OpenCL (every shipped batch of
# real layers, each checked first) with CLBlast SGEMM beside our GEMMs, then PyTorch's cuDNN/cuBLAS
# (FP32 with TF32 off, and TF32) on the same problems, merged into one JSON and a Markdown table.
# Ours is timed as PyTorch is, launches back to back (--timing stream; TIMING=launch for one launch at a
# time, each waited for); CLBlast by the host's clock around each call.
# usage: side_by_side.sh PLUMBLINE_BINARY OUT_DIR PYTHON_WITH_TORCH MIN_TIME [extra plumbline bench args...]
set -euo pipefail
bin=$1 out=$2 py=$3 min_time=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
"$bin" bench --device nvidia:0 --clblast-peer --timing "${TIMING:-stream}" --repetitions 9 --min-time "$min_time" --json "$out/ours.json" "$@" > "$out/ours.log" 2>&1
"$py" "$here/peers/torch_peer.py" "$out/ours.json" "$out/torch.json" --repetitions 9 --min-time "$min_time" > "$out/torch.log" 2>&1
"$py" "$here/side_by_side.py" "$out/ours.json" "$out/torch.json" --json "$out/side_by_side.json" --markdown "$out/side_by_side.md"
echo "side by side: $out/side_by_side.json, $out/side_by_side.md"
