// bug: the average always divides by kh*kw, ignoring count_include_pad = 0
// op: avg_pool2d
// entries: avg_always_kk
#include "pooling.cl"
__kernel void avg_always_kk(__global const float* x, __global float* y, int n, int c, int h, int w, int kh, int kw,
                            int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long o = get_global_id(0);
  if (o >= (long)n * c * oh * ow) return;
  const long plane = o / (oh * ow);
  const int i = (o / ow) % oh, j = o % ow;
  float s = 0.0f;
  for (int a = 0; a < kh; ++a)
    for (int b = 0; b < kw; ++b) {
      const int r = i * sh - ph + a, col = j * sw - pw + b;
      if (r >= 0 && r < h && col >= 0 && col < w) s += x[plane * h * w + r * w + col];
    }
  y[o] = s / (float)(kh * kw);
}
