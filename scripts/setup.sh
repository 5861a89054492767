#!/usr/bin/env bash
# Installs the Debian packages plumbline needs, if any is missing. Idempotent; silent when all are there.
set -euo pipefail

packages=(
  cmake g++ make                       # the build
  libeigen3-dev                        # reference/
  ocl-icd-opencl-dev opencl-headers opencl-clhpp-headers pocl-opencl-icd  # opencl/ (PoCL: OpenCL on the CPU)
  oclgrind                             # the sanitizer pass: an OpenCL simulator that reports races, uninitialized values, divergent barriers
  librapidcheck-dev libgtest-dev       # proptests/
  libbenchmark-dev                     # bench/
  libclblast-dev                       # bench/: CLBlast SGEMM, the OpenCL GEMM peer on GPUs
  libcli11-dev nlohmann-json3-dev      # apps/: argument parsing, JSON
  python3 python3-matplotlib python3-scipy  # reports/ (Debian's python3, /usr/bin/python3)
  pybind11-dev python3-dev python3-numpy    # python/: the Python API
  python3-torch                        # python/tests: PyTorch's CPU kernels checked as a client (non-finite policies)
  chromium                             # reports/: the report is tested in headless Chromium
  clang libclang-rt-14-dev             # fuzz/: libFuzzer harnesses of the parsers
  clang-format black                   # scripts/format.sh and its test: the C++ and Python files' format
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: missing packages (${missing[*]}) and no root or sudo to install them" >&2; exit 1; }
  sudo=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
