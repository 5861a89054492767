// bug: a split-K weight gradient whose reduction adds up every depth chunk's partial but the last
// op: conv2d_bwd_weight
// plan: conv2d_bwd_weight_split_drops_last_chunk.plan
// Our implicit GEMM (conv_igemm_weight.cl) cuts K = n*p*q into chunks; this reduction loops
// `i < splits - 1` (and is right when there is one chunk): an off-by-one that only shows when the last
// of several chunks holds terms.
#include "conv_igemm_weight.cl"

__kernel void reduce_all_but_last(__global const real_t* x, __global const real_t* d_y, __global real_t* d_w,
                                  __global const float* partial, int n, int c, int h, int w, int k, int r, int s, int sh,
                                  int sw, int ph, int pw, int dh, int dw, int g, int p, int q, int splits) {
  const long o = get_global_id(0), size = (long)k * (c / g) * r * s;
  if (o >= size) return;
  float sum = 0.0f;
  for (int i = 0; i < splits - 1 || (splits == 1 && i == 0); ++i) sum += partial[i * size + o];
  const int taps = (c / g) * r * s;
  if (isnan(sum)) sum = weight_direct(x, d_y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, o / taps, o % taps);
  ST(d_w, o, sum);
}
