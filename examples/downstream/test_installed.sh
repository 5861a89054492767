#!/usr/bin/env bash
# Installs plumbline from a build folder into a temporary prefix, builds this example project against
# it (find_package(plumbline CONFIG)), and runs the project's tests; then the installed program, far
# from the source tree, checks an operator with the kernels installed beside it.
# usage: test_installed.sh PLUMBLINE_BUILD_DIR EXAMPLE_SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
unset PLUMBLINE_KERNEL_DIR PLUMBLINE_TUNING_DIR
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" -j 2 > "$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
(cd "$work/build" && PLUMBLINE_DEVICE=pocl:0 ctest --output-on-failure)
(cd / && "$work/prefix/bin/plumbline" check add --cases 8 --device pocl:0)
# ... with the plans installed beside it, not this source tree's
"$work/prefix/bin/plumbline" ops --variants > "$work/variants.txt"
grep "variant xgemm  ($work/prefix/share/plumbline/kernels/gemm.plan:" "$work/variants.txt" > /dev/null ||
  { echo "the installed program does not read its installed plans"; exit 1; }
