// bug: the running maximum starts at 0, not at the first cell: all-negative windows give 0
// op: max_pool2d
// entries: max_from_zero
#include "pooling.cl"
__kernel void max_from_zero(__global const float* x, __global float* y, int n, int c, int h, int w, int kh, int kw,
                            int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long o = get_global_id(0);
  if (o >= (long)n * c * oh * ow) return;
  const long plane = o / (oh * ow);
  const int i = (o / ow) % oh, j = o % ow;
  float best = 0.0f;
  for (int a = 0; a < kh; ++a)
    for (int b = 0; b < kw; ++b) {
      const int r = i * sh - ph + a, col = j * sw - pw + b;
      if (r >= 0 && r < h && col >= 0 && col < w) best = fmax(best, x[plane * h * w + r * w + col]);
    }
  y[o] = best;
}
