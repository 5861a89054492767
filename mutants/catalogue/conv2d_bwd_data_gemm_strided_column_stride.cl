// bug: a strided 1x1 backward data whose spread tests the row stride and forgets the column stride
// op: conv2d_bwd_data
// plan: conv2d_bwd_data_gemm_strided_column_stride.plan
// Our gemm_strided (conv_gemm.cl: the GEMM over d_y's pixels into float scratch, then spread over d_x)
// with a spread that puts sums on every column of a row that meets a tap: right where sw = 1, and at
// sw >= 2 the pixels between the taps take a neighbour's sum (and read past its row's end) where the
// gradient is 0.
#include "conv_gemm.cl"
__kernel void spread_every_column(__global const float* cols, __global real_t* d_x, int h, int w, int sh, int sw, int p, int q) {
  const int quads = (w + 3) / 4, t = get_global_id(0);
  if (t >= quads * h) return;
  const long plane = get_global_id(1);
  const int row = t / quads, col = (t - row * quads) * 4;
  __global const float* src = cols + (plane * p + row / sh) * q;
  const bool hit_row = row % sh == 0;
  float v[4];
  for (int e = 0; e < 4; ++e) v[e] = hit_row && col + e < w ? src[(col + e) / sw] : 0.0f;  // the bug: no (col + e) % sw test
  __global real_t* out = d_x + (plane * h + row) * w + col;
  for (int e = 0; e < 4 && col + e < w; ++e) ST(out, e, v[e]);
}
