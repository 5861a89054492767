// bug: the fused forward computes gelu_erf where gelu_tanh is asked for
// op: gemm_bias_act
// entries: fused_wrong_gelu
#include "gemm.cl"
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void fused_wrong_gelu(__global const float* a, __global const float* b, __global const float* bias, __global float* y,
                      int batch, int m, int k, int n, int act, int bshared) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  const float acc = tile_gemm(a + bi * m * k, k, 1, b + b_offset(bi, batch, bshared, k, n), n, 1, m, k, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < m && col < n) y[bi * m * n + (long)row * n + col] = act_value(act == 2 ? 3 : act, acc + bias[col]);
}
