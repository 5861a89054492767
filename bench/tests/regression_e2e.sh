#!/usr/bin/env bash
# The regression gate end to end on PoCL: two runs of the same kernel are "same"; our matmul with a
# deliberate extra pass (~10% more work, bench/variants/matmul_extra_pass.cl) is a "regression".
# usage: regression_e2e.sh PLUMBLINE_BINARY SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
run() {  # entry, json
  "$bin" bench --device pocl:0 --problem matmul:m=256,k=256,n=256 --kernel-file "$src/bench/variants/matmul_extra_pass.cl" \
    --entry "$1" --repetitions 9 --min-time 0.05 --json "$out/$2.json" > "$out/$2.log" 2>&1
}
run matmul base
run matmul_extra_pass slow
run matmul again
echo "== same kernel, two runs: must be quiet"
/usr/bin/python3 "$src/bench/compare.py" "$out/base.json" "$out/again.json"
echo "== with the extra pass: must be flagged"
status=0
/usr/bin/python3 "$src/bench/compare.py" "$out/base.json" "$out/slow.json" --json "$out/verdict.json" || status=$?
if [ "$status" -ne 1 ] || ! grep -q '"verdict": "regression"' "$out/verdict.json"; then
  echo "FAIL: the 10% slowdown was not flagged (exit $status)"
  exit 1
fi
echo "the slowdown was flagged"
