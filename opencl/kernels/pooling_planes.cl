#include "pooling.cl"

// The `planes` variants of the pooling forwards and of avg_pool2d_bwd: the seeds' kernels (the same
// arithmetic in the same order, so the same bits) on a 2-D range, a plane per global row (axis 1) and
// the cells of a plane along axis 0. A work-item finds its cell with one 32-bit division instead of
// the seeds' three 64-bit ones: 64-bit division is a long software routine on GPUs, and it, not memory,
// bounded the seeds (avg_pool2d_bwd at 10% of the H200's copy bandwidth over ResNet's 32x256x56x56,
// 2026-11-28). Global size (roundup(cells of a plane, 256), n * c); axis 1 allows 65535 planes on
// NVIDIA (the plans' `when`), as max_pool2d_bwd's `planes` (pooling.cl).

__kernel void max_pool_forward_planes(__global const real_t* x, __global real_t* y, int n, int c, int h, int w, int kh, int kw,
                                      int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw), cell = get_global_id(0);
  if (cell >= oh * ow) return;
  const long plane = get_global_id(1);
  const int i = cell / ow, j = cell - i * ow;
  __global const real_t* xp = x + plane * h * w;
  ST(y, plane * oh * ow + cell, LD(xp, window_argmax(xp, h, w, kh, kw, sh, sw, ph, pw, i, j)));
}

__kernel void avg_pool_forward_planes(__global const real_t* x, __global real_t* y, int n, int c, int h, int w, int kh, int kw,
                                      int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw), cell = get_global_id(0);
  if (cell >= oh * ow) return;
  const long plane = get_global_id(1);
  const int i = cell / ow, j = cell - i * ow;
  __global const real_t* xp = x + plane * h * w;
  // Each term scaled by 1/count before summing, as the seed: a finite average never overflows.
  const float scale = 1.0f / (float)window_count(h, w, kh, kw, sh, sw, ph, pw, cip, i, j);
  float s = 0.0f;
  for (int a = 0; a < kh; ++a) {
    const int r = i * sh - ph + a;
    if (r < 0 || r >= h) continue;
    for (int b = 0; b < kw; ++b) {
      const int col = j * sw - pw + b;
      if (col >= 0 && col < w) s += LD(xp, r * w + col) * scale;
    }
  }
  ST(y, plane * oh * ow + cell, s);
}

__kernel void avg_pool_backward_planes(__global const real_t* d_y, __global real_t* d_x, int n, int c, int h, int w, int kh,
                                       int kw, int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw), cell = get_global_id(0);
  if (cell >= h * w) return;
  const long plane = get_global_id(1);
  const int r = cell / w, col = cell - r * w;
  __global const real_t* grads = d_y + plane * oh * ow;
  float g = 0.0f;
  for (int i = first_window(r, kh, sh, ph); i <= last_window(r, sh, ph, oh); ++i)
    for (int j = first_window(col, kw, sw, pw); j <= last_window(col, sw, pw, ow); ++j)
      g += LD(grads, i * ow + j) / (float)window_count(h, w, kh, kw, sh, sw, ph, pw, cip, i, j);
  ST(d_x, plane * h * w + cell, g);
}
