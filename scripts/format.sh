#!/usr/bin/env bash
# Formats the C++ sources (clang-format, .clang-format) and the Python files (black, pyproject.toml);
# with --check, changes nothing and exits 1 naming each file that differs (the format_check test).
# The OpenCL kernels (opencl/kernels/) are left as written.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1
# The tree's own files: tracked ones in a clone, else every one outside the build folders.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  list() { git ls-files "$@"; }
else
  list() { for pattern in "$@"; do find . -name "$pattern" -not -path './build*' -not -path './.git/*' | sed 's|^\./||'; done; }
fi
mapfile -t cpp < <(list '*.cpp' '*.hpp' | grep -v '^opencl/kernels/')
mapfile -t py < <(list '*.py')
for tool in clang-format black; do
  command -v "$tool" >/dev/null || { echo "format: $tool is missing (scripts/setup.sh installs it)" >&2; exit 2; }
done
if [ "$check" = 1 ]; then
  status=0
  for f in "${cpp[@]}"; do
    clang-format "$f" | cmp -s - "$f" || { echo "format: $f differs from clang-format's (run scripts/format.sh)"; status=1; }
  done
  black --quiet --check "${py[@]}" 2>/dev/null || { black --check "${py[@]}" 2>&1 | grep '^would reformat' | sed 's/^/format: /'; status=1; }
  exit $status
fi
clang-format -i "${cpp[@]}"
black --quiet "${py[@]}"
