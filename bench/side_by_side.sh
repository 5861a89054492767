#!/usr/bin/env bash
# The GPU side-by-side, one command, one run: our kernels on NVIDIA's OpenCL (every shipped batch of
# real layers, each checked first) with CLBlast SGEMM beside our GEMMs, then PyTorch's cuDNN/cuBLAS
# (FP32 with TF32 off, and TF32) on the same problems, merged into one JSON and a Markdown table.
# Ours is timed as PyTorch is, launches back to back (--timing stream; TIMING=launch for one launch at a
# time, each waited for); CLBlast by the host's clock around each call. Our lines are checked by JOBS
# processes side by side first (bench --jobs, default 4: the largest lines' host checks take 10-16 GB).
# usage: side_by_side.sh PLUMBLINE_BINARY OUT_DIR PYTHON_WITH_TORCH MIN_TIME [extra plumbline bench args...]
# With PEER_MODES=1, PyTorch's convolutions and matmuls are also judged under the numeric modes' bounds
# (peers/torch_accuracy.py, TF32 off and on), so that each of our lines stands beside PyTorch in
# its own mode (side_by_side.py --peer-modes).
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
  "$bin" bench --device nvidia:0 --clblast-peer --timing "${TIMING:-stream}" --repetitions 9 --min-time "$min_time" --jobs "${JOBS:-4}" --json "$dir/ours.json" "$@" > "$dir/ours.log" 2>&1
  "$py" "$here/peers/torch_peer.py" "$dir/ours.json" "$dir/torch.json" --repetitions 9 --min-time "$min_time" > "$dir/torch.log" 2>&1
  local modes=()
  if [[ ${PEER_MODES:-0} == 1 ]]; then
    local lines
    # our float32 convolution and matmul lines (the modes are float32's)
    lines=$("$py" -c 'import json, sys; print(" ".join(sorted({b["name"].split("@")[0] for b in json.load(open(sys.argv[1]))["benchmarks"] if b["name"].startswith(("conv2d", "matmul:")) and "dtype=" not in b["name"].replace("dtype=f32", "")})))' "$dir/ours.json")
    if [[ -n $lines ]]; then
      # shellcheck disable=SC2086  # one argument per problem line
      "$py" "$here/peers/torch_accuracy.py" $lines --json "$dir/peer_modes.json" > "$dir/peer_modes.md" 2>&1
      # shellcheck disable=SC2086
      "$py" "$here/peers/torch_accuracy.py" $lines --tf32 --json "$dir/peer_modes_tf32.json" > "$dir/peer_modes_tf32.md" 2>&1
      modes=(--peer-modes "$dir/peer_modes.json" --peer-modes-tf32 "$dir/peer_modes_tf32.json")
      all_modes+=("${modes[@]}")
    fi
  fi
  "$py" "$here/side_by_side.py" "$dir/ours.json" "$dir/torch.json" --json "$dir/side_by_side.json" --markdown "$dir/side_by_side.md" ${modes[@]+"${modes[@]}"}
}

batches=() others=() problems=0 all_modes=()
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
    "$py" "$here/side_by_side.py" "${pairs[@]}" --json "$out/side_by_side.json" --markdown "$out/side_by_side.md" ${all_modes[@]+"${all_modes[@]}"}
  done
fi
echo "side by side: $out/side_by_side.json, $out/side_by_side.md"
