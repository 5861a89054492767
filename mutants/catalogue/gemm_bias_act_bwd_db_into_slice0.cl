// bug: a batched weight gradient summed into the first slice
// op: gemm_bias_act_bwd
// entries: gemm_bias_act_grad_pre,gemm_bias_act_grad_a,grad_b_slice0,gemm_bias_act_grad_bias
#include "gemm.cl"
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void grad_b_slice0(GEMM_BWD_ARGS) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const int shared = batch == 0 || bshared;
  const long bi = get_group_id(2), depth = shared ? (long)max(batch, 1) * m : m;
  const long a_off = shared ? 0 : bi * m * k, g_off = shared ? 0 : bi * m * n;
  const float acc = tile_gemm(a + a_off, 1, k, grad_pre + g_off, n, 1, k, depth, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < k && col < n) d_b[(long)row * n + col] = acc;  // every batch entry into slice 0
}
