// A planted slowdown for the paired regression test: our matmul (the default ABI's `matmul`), plus an
// extra pass over the first tenth of the depth whose result is multiplied by zero (IEEE arithmetic keeps
// it: 0 * x is not 0 for every x). About 10% more work, the same output. Compare it with ours:
//   plumbline bench --problem ... --kernel-file bench/variants/matmul_extra_pass.cl --entry matmul \
//     --baseline-kernel-file opencl/kernels/gemm.cl
#ifndef EXTRA_DEPTH_DIV
#define EXTRA_DEPTH_DIV 10  // the extra pass walks depth / EXTRA_DEPTH_DIV (1: all of it, twice the work)
#endif
#define matmul seed_matmul  // gemm.cl's own matmul, renamed: this file's matmul is the slowed one
#include "gemm.cl"
#undef matmul

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul(__global const float* a, __global const float* b, __global float* y, int batch, int m, int k, int n, int ta, int tb) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  __global const float* ab = a + bi * m * k;
  __global const float* bb = b + bi * k * n;
  const float acc = tile_gemm(ab, ta ? 1 : k, ta ? m : 1, bb, tb ? 1 : n, tb ? k : 1, m, k, n, at, bt);
  const float extra = tile_gemm(ab, ta ? 1 : k, ta ? m : 1, bb, tb ? 1 : n, tb ? k : 1, m, max(k / EXTRA_DEPTH_DIV, 1), n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < m && col < n) y[bi * m * n + (long)row * n + col] = acc + 0.0f * extra;
}
