// bug: padding applied on one side only: windows start at i*sh, padded at the bottom and right
// op: avg_pool2d
// entries: avg_one_side
#include "pooling.cl"
__kernel void avg_one_side(__global const float* x, __global float* y, int n, int c, int h, int w, int kh, int kw,
                           int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long o = get_global_id(0);
  if (o >= (long)n * c * oh * ow) return;
  const long plane = o / (oh * ow);
  const int i = (o / ow) % oh, j = o % ow;
  float s = 0.0f;
  int count = 0;
  for (int a = 0; a < kh; ++a)
    for (int b = 0; b < kw; ++b) {
      const int r = i * sh + a, col = j * sw + b;
      if (r < h && col < w) s += x[plane * h * w + r * w + col], ++count;
    }
  y[o] = s / (float)(cip ? kh * kw : max(count, 1));
}
