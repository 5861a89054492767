// bug: the gradient goes to the last maximum of a window on ties, not the first
// op: max_pool2d_bwd
// entries: to_last
#include "pooling.cl"
int last_argmax(__global const float* plane, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int i, int j) {
  int best = -1;
  float best_v = 0.0f;
  for (int a = 0; a < kh; ++a)
    for (int b = 0; b < kw; ++b) {
      const int r = i * sh - ph + a, c = j * sw - pw + b;
      if (r < 0 || r >= h || c < 0 || c >= w) continue;
      const float v = plane[r * w + c];
      if (best < 0 || v >= best_v || isnan(v)) best = r * w + c, best_v = v;
    }
  return best;
}
__kernel void to_last(__global const float* x, __global const float* d_y, __global float* d_x, int n, int c, int h, int w,
                      int kh, int kw, int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long e = get_global_id(0);
  if (e >= (long)n * c * h * w) return;
  const long plane = e / (h * w);
  const int r = (e / w) % h, col = e % w, cell = r * w + col;
  float g = 0.0f;
  for (int i = first_window(r, kh, sh, ph); i <= last_window(r, sh, ph, oh); ++i)
    for (int j = first_window(col, kw, sw, pw); j <= last_window(col, sw, pw, ow); ++j)
      if (last_argmax(x + plane * h * w, h, w, kh, kw, sh, sw, ph, pw, i, j) == cell) g += d_y[(plane * oh + i) * ow + j];
  d_x[e] = g;
}
