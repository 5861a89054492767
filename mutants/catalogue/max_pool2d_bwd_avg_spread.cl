// bug: a max-pool gradient spread like an average pool
// op: max_pool2d_bwd
// entries: spread
// Planted bug (a training framework's max-pool gradient): every d_y is spread evenly over its window,
// as an average pool's gradient, instead of going to the window's first maximum.
int out_size(int in, int k, int s, int p) { return (in + 2 * p - k) / s + 1; }

__kernel void spread(__global const float* x, __global const float* d_y, __global float* d_x, int n, int c, int h, int w,
                     int kh, int kw, int sh, int sw, int ph, int pw) {
  const int oh = out_size(h, kh, sh, ph), ow = out_size(w, kw, sw, pw);
  const long e = get_global_id(0);
  if (e >= (long)n * c * h * w) return;
  const long plane = e / (h * w);
  const int r = (e / w) % h, col = e % w;
  float acc = 0.0f;
  for (int i = 0; i < oh; ++i)
    for (int j = 0; j < ow; ++j)
      if (r >= i * sh - ph && r < i * sh - ph + kh && col >= j * sw - pw && col < j * sw - pw + kw)
        acc += d_y[(plane * oh + i) * ow + j] / (float)(kh * kw);
  d_x[e] = acc;
}
