#!/usr/bin/env bash
# The GPU side-by-side, one command, one run: our kernels on NVIDIA's OpenCL (every shipped batch of
# real layers, each checked first) with CLBlast SGEMM beside our GEMMs, then PyTorch's cuDNN/cuBLAS
# (FP32 with TF32 off, and TF32) on the same problems, merged into one JSON and a Markdown table.
# Ours is timed as PyTorch is, launches back to back (--timing stream; TIMING=launch for one launch at a
# time, each waited for); CLBlast by the host's clock around each call.
# usage: side_by_side.sh PLUMBLINE_BINARY OUT_DIR PYTHON_WITH_TORCH MIN_TIME [extra plumbline bench args...]
#
# With one --batch, or --problem lines, it is one run into OUT_DIR. With several batches (or none named:
# then every bench/batches/*.batch but smoke) each batch runs in turn, ours then PyTorch, into
# OUT_DIR/<batch name>/, and OUT_DIR/side_by_side.{json,md} merges those that finished: a run cut off
# by a time limit loses the batch it was in, not the ones before.
set -euo pipefail
bin=$1 out=$2 py=$3 min_time=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"

# One run over the given bench arguments into a folder: ours, PyTorch, their side-by-side.
one_run() {
  local dir=$1
  shift
  mkdir -p "$dir"
  "$bin" bench --device nvidia:0 --clblast-peer --timing "${TIMING:-stream}" --repetitions 9 --min-time "$min_time" --json "$dir/ours.json" "$@" > "$dir/ours.log" 2>&1
  "$py" "$here/peers/torch_peer.py" "$dir/ours.json" "$dir/torch.json" --repetitions 9 --min-time "$min_time" > "$dir/torch.log" 2>&1
  "$py" "$here/side_by_side.py" "$dir/ours.json" "$dir/torch.json" --json "$dir/side_by_side.json" --markdown "$dir/side_by_side.md"
}

batches=() others=() problems=0
while (($#)); do
  case $1 in
    --batch) batches+=("$2"); shift 2 ;;
    --batch=*) batches+=("${1#--batch=}"); shift ;;
    *) [[ $1 == --problem* ]] && problems=1; others+=("$1"); shift ;;
  esac
done
if ((${#batches[@]} == 0 && problems == 0)); then
  for b in "$here"/batches/*.batch; do [[ $(basename "$b") == smoke.batch ]] || batches+=("$b"); done
fi

if ((${#batches[@]} <= 1)); then
  one_run "$out" ${batches[@]+--batch "${batches[@]}"} ${others[@]+"${others[@]}"}
else
  pairs=()
  for b in "${batches[@]}"; do
    name=$(basename "$b" .batch)
    echo "side by side: $name"
    one_run "$out/$name" --batch "$b" ${others[@]+"${others[@]}"}
    pairs+=("$out/$name/ours.json" "$out/$name/torch.json")
    # after each batch, so that what has finished is merged even if a later batch is cut off
    "$py" "$here/side_by_side.py" "${pairs[@]}" --json "$out/side_by_side.json" --markdown "$out/side_by_side.md"
  done
fi
echo "side by side: $out/side_by_side.json, $out/side_by_side.md"
