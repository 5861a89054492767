// bug: the depth walked in whole 16-wide slabs only: K % 16 != 0 loses the tail
// op: matmul
// entries: matmul_k16
#include "gemm.cl"
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul_k16(__global const float* a, __global const float* b, __global float* y, int batch, int m, int k, int n, int ta, int tb) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  const float acc = tile_gemm(a + bi * m * k, ta ? 1 : k, ta ? m : 1, b + bi * k * n, tb ? 1 : n, tb ? k : 1, m, k / TILE * TILE, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < m && col < n) y[bi * m * n + (long)row * n + col] = acc;
}
