#!/usr/bin/env bash
# Our convolutions on PoCL beside PyTorch's CPU build (oneDNN) on the same cores, one run: conv2d
# N8 C64 56x56 K64 3x3 in its three directions by default (the CPU yardstick). Each of ours is
# checked before it is timed; PyTorch gets as many threads as PoCL has cores.
# usage: conv_cpu_peer.sh PLUMBLINE_BINARY OUT_DIR [PYTHON_WITH_TORCH] [extra plumbline bench args...]
# Debian: apt-get install python3-torch (its build has oneDNN: torch.backends.mkldnn).
set -euo pipefail
bin=$1 out=$2 py=${3:-/usr/bin/python3}
shift $(( $# >= 3 ? 3 : $# ))
here=$(cd "$(dirname "$0")" && pwd)
threads=$(nproc)
problems=()
if [ $# -eq 0 ]; then
  for op in conv2d conv2d_bwd_data conv2d_bwd_weight; do problems+=(--problem "$op:n=8,c=64,h=56,w=56,k=64,r=3,s=3,ph=1,pw=1"); done
fi
mkdir -p "$out"
"$bin" bench --device pocl:0 --repetitions 5 --min-time 0.2 --json "$out/ours.json" "${problems[@]}" "$@" > "$out/ours.log" 2>&1
"$py" "$here/peers/torch_peer.py" "$out/ours.json" "$out/torch.json" --device cpu --threads "$threads" --repetitions 5 --min-time 0.2 > "$out/torch.log" 2>&1
"$py" "$here/side_by_side.py" "$out/ours.json" "$out/torch.json" --json "$out/side_by_side.json" --markdown "$out/side_by_side.md"
echo "side by side ($threads cores): $out/side_by_side.json, $out/side_by_side.md"
