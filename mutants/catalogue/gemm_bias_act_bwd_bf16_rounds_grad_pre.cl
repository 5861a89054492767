// bug: bf16 gemm_bias_act_bwd keeps the pre-activation's gradient G in bf16 between its GEMMs (an intermediate rounded)
// op: gemm_bias_act_bwd
// plan: gemm_bias_act_bwd_bf16_rounds_grad_pre.plan
// Our xgemm variant with G rounded to bf16 as it is stored (what an unfused bf16 autograd does): d_a,
// d_b and d_bias then sum products of rounded values. Where the sums cancel, or where act' is steep,
// they are off by far more than one rounding of each result.
#include "xgemm_backward.cl"

// grad_pre_partial_sums (xgemm_backward.cl) with G rounded to bf16 as it is stored.
__kernel void grad_pre_rounded(__global float* restrict g, __global const real_t* restrict d_y, __global const real_t* restrict bias,
                               int act, int rows, int n, __global float* restrict partial) {
  const int col = get_global_id(0), chunk = get_global_id(1);
  if (col >= n) return;
  const float b = LD(bias, col);
  const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);
  float s = 0.0f;
  for (long r = r0; r < r1; ++r) {
    const long i = r * n + col;
    const float v = bf16_to_float(float_to_bf16(LD(d_y, i) * act_slope(act, g[i] + b)));
    g[i] = v;
    s += v;
  }
  partial[(long)chunk * n + col] = s;
}
