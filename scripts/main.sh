#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs every check on every OpenCL device.
# (The HTML report and the benchmark gate join it with issues 6 and 7.)
# Results go to out/ (override with OUT_DIR). Exit status non-zero when anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build
out=${OUT_DIR:-out}
mkdir -p "$out"
status=0
echo "== devices"
build/apps/plumbline devices || status=$?
echo "== reference gradients against finite differences"
build/apps/plumbline gradcheck --all --cases 100 --json "$out/gradcheck.json" || status=$?
echo "== every kernel against the reference, on every OpenCL device (PLUMBLINE_DEVICE narrows it)"
build/apps/plumbline check --all --cases 100 --json "$out/check.json" || status=$?
echo "== every rewrite rule of the e-graph, on the reference and on every OpenCL device"
build/apps/plumbline rules check --json "$out/rules.json" || status=$?
echo "results: $out/gradcheck.json $out/check.json $out/rules.json"
exit $status
