#!/usr/bin/env bash
# The test suite: installs what is missing, builds, runs every test (ctest), then runs the tests that
# load no OpenCL driver again under AddressSanitizer + UndefinedBehaviorSanitizer, then fuzzes the
# parsers for a short fixed time (fuzz/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh

echo "== build"
bash scripts/build.sh build
echo "== tests (every OpenCL device found: PLUMBLINE_DEVICE narrows it)"
(cd build && ctest --output-on-failure -j "$(nproc)")

echo "== sanitizer build (ASan + UBSan, no OpenCL; fewer random cases: the full count ran above)"
bash scripts/build.sh build-asan -DPLUMBLINE_SANITIZE=ON -DPLUMBLINE_WITH_OPENCL=OFF -DCMAKE_BUILD_TYPE=Sanitize
(cd build-asan && RC_PARAMS="max_success=15" ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$(nproc)")

echo "== fuzzing (libFuzzer with ASan + UBSan): the problem-line, plan, .npy and rules parsers, 15 s each"
CXX=clang++ bash scripts/build.sh build-fuzz -DPLUMBLINE_FUZZ=ON -DCMAKE_BUILD_TYPE=Sanitize
(cd build-fuzz && ctest --output-on-failure -j "$(nproc)")
