#!/usr/bin/env bash
# The main job: installs what is missing, builds, and runs `plumbline gate`: every check on every
# OpenCL device (gradients, kernels, rewrite rules, training graphs), the benchmark smoke set against
# the previous run's, then the HTML report. Results go to out/ (override with OUT_DIR); extra
# arguments go to the gate (e.g. --device pocl:0, --op conv2d, --cases 1000, --no-bench).
# Exit status non-zero when anything failed or regressed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh build
exec build/apps/plumbline gate --out "${OUT_DIR:-out}" "$@"
