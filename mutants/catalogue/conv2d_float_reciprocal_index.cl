// bug: output indices split by multiplying with a float reciprocal (1/q): off by one for some sizes
// op: conv2d
// entries: recip,recip_bias
#include "conv.cl"

float bad_point(__global const float* x, __global const float* wt, long o, int n, int c, int h, int w, int k, int r,
                int s, int sh, int sw, int ph, int pw, int dh, int dw, int g) {
  const int p = conv_out(h, r, sh, ph, dh), q = conv_out(w, s, sw, pw, dw);

  const float inv_q = 1.0f / (float)q, inv_p = 1.0f / (float)p, inv_k = 1.0f / (float)k;
  const long t1 = (long)((float)o * inv_q), t2 = (long)((float)t1 * inv_p);
  const int qi = o - t1 * q, pi = t1 - t2 * p, ki = t2 - (long)((float)t2 * inv_k) * k, ni = (long)((float)t2 * inv_k);
  const int cg = c / g, group = ki / (k / g);
  float acc = 0.0f;
  for (int cl = 0; cl < cg; ++cl)
    for (int a = 0; a < r; ++a)
      for (int b = 0; b < s; ++b) {
        const int hi = pi * sh - ph + a * dh, wi = qi * sw - pw + b * dw;
        if (hi >= 0 && hi < h && wi >= 0 && wi < w) acc += x[(((long)ni * c + group * cg + cl) * h + hi) * w + wi] * wt[(((long)ki * cg + cl) * r + a) * s + b];
      }
  return acc;
}
__kernel void recip(__global const float* x, __global const float* wt, __global float* y, int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  const long o = get_global_id(0);
  if (o < (long)n * k * conv_out(h, r, sh, ph, dh) * conv_out(w, s, sw, pw, dw))
    y[o] = bad_point(x, wt, o, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g);
}
__kernel void recip_bias(__global const float* x, __global const float* wt, __global const float* b, __global float* y, int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  const int pq = conv_out(h, r, sh, ph, dh) * conv_out(w, s, sw, pw, dw);
  const long o = get_global_id(0);
  if (o < (long)n * k * pq) y[o] = b[(o / pq) % k] + bad_point(x, wt, o, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g);
}
