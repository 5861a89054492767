// bug: groups ignored in the weight gradient: every filter reads the first group's channels
// op: conv2d_bwd_weight
// entries: wgrad_nogroups,wgrad_nogroups_bias,conv2d_backward_bias
#include "conv.cl"
// Grid (ceil(c/g*r*s/16)*16, ceil(k/g/16)*16, g): one work-item per weight of one group.
float nogroup_weight(__global const float* x, __global const float* d_y, int n, int c, int h, int w, int k, int r, int s,
                     int sh, int sw, int ph, int pw, int dh, int dw, int g, int crs, int kl, int group) {
  const int p = conv_out(h, r, sh, ph, dh), q = conv_out(w, s, sw, pw, dw), cg = c / g, kg = k / g;
  const int cl = crs / (r * s), a = (crs / s) % r, b = crs % s, ki = group * kg + kl;
  float acc = 0.0f;
  for (int ni = 0; ni < n; ++ni)
    for (int pi = 0; pi < p; ++pi)
      for (int qi = 0; qi < q; ++qi) {
        const int hi = pi * sh - ph + a * dh, wi = qi * sw - pw + b * dw;
        if (hi >= 0 && hi < h && wi >= 0 && wi < w)
          acc += x[(((long)ni * c + cl) * h + hi) * w + wi] * d_y[(((long)ni * k + ki) * p + pi) * q + qi];
      }
  return acc;
}
__kernel void wgrad_nogroups(__global const float* x, __global const float* d_y, __global float* d_w, int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  const int crs = get_global_id(0), kl = get_global_id(1), group = get_global_id(2);
  if (crs < c / g * r * s && kl < k / g)
    d_w[((long)(group * (k / g) + kl)) * (c / g * r * s) + crs] = nogroup_weight(x, d_y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, crs, kl, group);
}
__kernel void wgrad_nogroups_bias(__global const float* x, __global const float* d_y, __global float* d_w, __global float* d_bias, int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  const int crs = get_global_id(0), kl = get_global_id(1), group = get_global_id(2);
  if (crs < c / g * r * s && kl < k / g)
    d_w[((long)(group * (k / g) + kl)) * (c / g * r * s) + crs] = nogroup_weight(x, d_y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, crs, kl, group);
}
