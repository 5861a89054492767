// bug: non-finite derivatives silently zeroed in the fused GEMM backward
// op: gemm_bias_act_bwd
// entries: zeroing_grad_pre,gemm_bias_act_grad_a,gemm_bias_act_grad_b,gemm_bias_act_grad_bias
// Planted bug (seed 004, numr's fused GEMM backward): grad_pre = d_y * act'(pre) with every non-finite
// derivative silently replaced by 0, against the NaN policy. The other three passes are ours.
// Entries: zeroing_grad_pre, gemm_bias_act_grad_a, gemm_bias_act_grad_b, gemm_bias_act_grad_bias.
#include "gemm.cl"

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void zeroing_grad_pre(GEMM_BWD_ARGS) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  const float acc = tile_gemm(a + bi * m * k, k, 1, b + b_offset(bi, batch, bshared, k, n), n, 1, m, k, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  const long o = bi * m * n + (long)row * n + col;
  if (row < m && col < n) {
    float deriv = act_slope(act, acc + bias[col]);
    if (deriv != deriv || fabs(deriv) > 3.4e38f) deriv = 0.0f;  // "guard against non-finite derivatives"
    grad_pre[o] = d_y[o] * deriv;
  }
}
