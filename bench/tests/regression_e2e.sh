#!/usr/bin/env bash
# The paired regression verdict end to end on PoCL: our matmul against itself is "same"; against our
# matmul with a whole extra pass over the depth (twice the work, bench/variants/matmul_extra_pass.cl)
# it is a "regression", in both timings (--timing launch and stream). Baseline and candidate run interleaved in one process, so the test holds while
# other processes keep the machine's cores busy (the suite runs it beside a busy loop: docs/gate.md).
# usage: regression_e2e.sh PLUMBLINE_BINARY SOURCE_DIR
set -euo pipefail
bin=$1 src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
paired() {  # name, candidate flags...
  local name=$1
  shift
  local status=0
  "$bin" bench --device pocl:0 --problem matmul:m=256,k=256,n=256 --entry matmul --baseline-kernel-file "$src/opencl/kernels/gemm.cl" \
    --repetitions 15 --min-time 0.02 --json "$out/$name.json" "$@" > "$out/$name.log" 2>&1 || status=$?
  cat "$out/$name.log"
  return $status
}
echo "== our matmul against itself: same"
paired same --kernel-file "$src/opencl/kernels/gemm.cl"
grep -q '"verdict": "same"' "$out/same.json"
echo "== with a whole extra pass: a regression, exit 1"
status=0
paired slow --kernel-file "$src/bench/variants/matmul_extra_pass.cl" --define EXTRA_DEPTH_DIV=1 || status=$?
if [ "$status" -ne 1 ] || ! grep -q '"verdict": "regression"' "$out/slow.json"; then
  echo "FAIL: twice the work was not flagged (exit $status)"
  exit 1
fi
echo "the slowdown was flagged"
echo "== the same, timed in bursts of back-to-back launches (--timing stream): a regression, exit 1"
status=0
paired slow_stream --kernel-file "$src/bench/variants/matmul_extra_pass.cl" --define EXTRA_DEPTH_DIV=1 --timing stream || status=$?
if [ "$status" -ne 1 ] || ! grep -q '"verdict": "regression"' "$out/slow_stream.json" || ! grep -q '"timing": "stream"' "$out/slow_stream.json"; then
  echo "FAIL: twice the work was not flagged in stream timing (exit $status)"
  exit 1
fi
echo "the slowdown was flagged in stream timing too"
