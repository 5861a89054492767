// Convolution kernels (NCHW, weights [k, c/g, r, s]). ABI (docs/kernel-abi.md): inputs, outputs, then
// n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, bias. The output size follows DESIGN.md:
// p = (h + 2 ph - dh (r - 1) - 1) / sh + 1.
#include "storage.h"  // tensors in the build's storage format, accumulation in float

#ifndef TILE  // the plan (conv.plan) defines it; this default serves files that include this one
#define TILE 16
#endif
#ifndef W_CHUNK  // the plan (conv.plan) defines it; this default serves files that include this one
#define W_CHUNK 256  // weights staged in local memory this many at a time: any kernel size works
#endif

int conv_out(int in, int k, int s, int p, int d) { return (in + 2 * p - d * (k - 1) - 1) / s + 1; }

// ---- forward: one work-item per output element ----------------------------------------------------

float conv_point(__global const real_t* x, __global const real_t* wt, long o, int n, int c, int h, int w, int k, int r,
                 int s, int sh, int sw, int ph, int pw, int dh, int dw, int g) {
  const int p = conv_out(h, r, sh, ph, dh), q = conv_out(w, s, sw, pw, dw);
  const int qi = o % q, pi = (o / q) % p, ki = (o / ((long)p * q)) % k, ni = o / ((long)k * p * q);
  const int cg = c / g, group = ki / (k / g);
  float acc = 0.0f;
  for (int cl = 0; cl < cg; ++cl) {
    __global const real_t* plane = x + ((long)ni * c + group * cg + cl) * h * w;
    __global const real_t* filt = wt + ((long)ki * cg + cl) * r * s;
    for (int a = 0; a < r; ++a) {
      const int hi = pi * sh - ph + a * dh;
      if (hi < 0 || hi >= h) continue;
      for (int b = 0; b < s; ++b) {
        const int wi = qi * sw - pw + b * dw;
        if (wi >= 0 && wi < w) acc += LD(plane, hi * w + wi) * LD(filt, a * s + b);
      }
    }
  }
  return acc;
}

__kernel void conv2d_forward(__global const real_t* x, __global const real_t* wt, __global real_t* y, int n, int c, int h,
                             int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  const long o = get_global_id(0);
  if (o < (long)n * k * conv_out(h, r, sh, ph, dh) * conv_out(w, s, sw, pw, dw))
    ST(y, o, conv_point(x, wt, o, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g));
}

__kernel void conv2d_forward_bias(__global const real_t* x, __global const real_t* wt, __global const real_t* b,
                                  __global real_t* y, int n, int c, int h, int w, int k, int r, int s, int sh, int sw,
                                  int ph, int pw, int dh, int dw, int g, int bias) {
  const int pq = conv_out(h, r, sh, ph, dh) * conv_out(w, s, sw, pw, dw);
  const long o = get_global_id(0);
  if (o < (long)n * k * pq) ST(y, o, LD(b, (o / pq) % k) + conv_point(x, wt, o, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g));
}

// ---- backward data: the seed's "full convolution" of d_y with the flipped kernel --------------------
// Work-groups of 16x16 over (w, h), one z per (n, c). For each filter of the channel's group, its
// r x s weights for this channel are staged in local memory in chunks of W_CHUNK (no size limit), then
// every work-item gathers the d_y positions whose window covers its input position. Stride 1 takes a
// fast path without the divisibility test. Global size: (ceil(w/16)*16, ceil(h/16)*16, n*c).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void conv2d_backward_data(__global const real_t* wt, __global const real_t* d_y, __global real_t* d_x, int n, int c, int h,
                          int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  __local float wl[W_CHUNK];
  const int iw = get_global_id(0), ih = get_global_id(1), nc = get_global_id(2);
  const int ni = nc / c, ci = nc % c, cg = c / g, kg = k / g, group = ci / cg, cl = ci % cg;
  const int p = conv_out(h, r, sh, ph, dh), q = conv_out(w, s, sw, pw, dw);
  const int tid = get_local_id(1) * TILE + get_local_id(0), taps = r * s;
  const bool inside = iw < w && ih < h;
  float acc = 0.0f;
  for (int kl = 0; kl < kg; ++kl) {
    const int ki = group * kg + kl;
    __global const real_t* filt = wt + ((long)ki * cg + cl) * taps;
    __global const real_t* dyp = d_y + ((long)ni * k + ki) * p * q;
    for (int t0 = 0; t0 < taps; t0 += W_CHUNK) {
      const int count = min(W_CHUNK, taps - t0);
      for (int t = tid; t < count; t += TILE * TILE) wl[t] = LD(filt, t0 + t);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (inside) {
        for (int t = 0; t < count; ++t) {
          const int a = (t0 + t) / s, b = (t0 + t) % s;
          const int hoff = ih + ph - a * dh, woff = iw + pw - b * dw;
          int oh, ow;
          if (sh == 1 && sw == 1) {  // fast path: no division, no divisibility test
            oh = hoff;
            ow = woff;
          } else {
            if (hoff < 0 || woff < 0 || hoff % sh != 0 || woff % sw != 0) continue;
            oh = hoff / sh;
            ow = woff / sw;
          }
          if (oh >= 0 && oh < p && ow >= 0 && ow < q) acc += LD(dyp, oh * q + ow) * wl[t];
        }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
  if (inside) ST(d_x, (((long)ni * c + ci) * h + ih) * w + iw, acc);
}

// ---- backward weight: implicit GEMM per group ------------------------------------------------------
// d_w[group] (kg x cg*r*s) = A (kg x n*p*q) @ B (n*p*q x cg*r*s), A[kl, (ni,pi,qi)] = d_y[ni, group*kg+kl,
// pi, qi], B[(ni,pi,qi), (cl,a,b)] = x[ni, group*cg+cl, pi*sh-ph+a*dh, qi*sw-pw+b*dw] (0 outside), as
// seed 003 describes (M = k, N = c/g*r*s, K = n*p*q) but computing. 16x16 tiles staged in local memory.
// Global size: (ceil(cg*r*s/16)*16, ceil(kg/16)*16, g).
// b_ok marks the B cells that are terms of the sum: a padding position is no term (0 * Inf would be NaN).
void wgrad_tiles(__global const real_t* x, __global const real_t* d_y, __global real_t* d_w, int n, int c, int h, int w,
                 int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, __local float* a_tile,
                 __local float* b_tile, __local uchar* b_ok) {
  const int p = conv_out(h, r, sh, ph, dh), q = conv_out(w, s, sw, pw, dw);
  const int cg = c / g, kg = k / g, group = get_group_id(2), cols = cg * r * s;
  const long depth = (long)n * p * q;
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int col = get_group_id(0) * TILE + lx, row = get_group_id(1) * TILE + ly;
  float acc = 0.0f;
  for (long t = 0; t < depth; t += TILE) {
    // A tile: rows = filters, columns = (ni, pi, qi).
    const long ka = t + lx;
    float av = 0.0f;
    if (row < kg && ka < depth) {
      const int ni = ka / ((long)p * q), pq = ka % ((long)p * q);
      av = LD(d_y, ((long)ni * k + group * kg + row) * p * q + pq);
    }
    a_tile[ly * TILE + lx] = av;
    // B tile: rows = (ni, pi, qi), columns = (cl, a, b); zero outside the input (padding).
    const long kb = t + ly;
    float bv = 0.0f;
    uchar ok = 0;
    if (col < cols && kb < depth) {
      const int ni = kb / ((long)p * q), pi = (kb / q) % p, qi = kb % q;
      const int cl = col / (r * s), a = (col / s) % r, b = col % s;
      const int hi = pi * sh - ph + a * dh, wi = qi * sw - pw + b * dw;
      if (hi >= 0 && hi < h && wi >= 0 && wi < w) {
        bv = LD(x, (((long)ni * c + group * cg + cl) * h + hi) * w + wi);
        ok = 1;
      }
    }
    b_tile[ly * TILE + lx] = bv;
    b_ok[ly * TILE + lx] = ok;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < TILE; ++e)
      if (b_ok[e * TILE + lx]) acc += a_tile[ly * TILE + e] * b_tile[e * TILE + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < kg && col < cols) ST(d_w, ((long)(group * kg + row)) * cols + col, acc);
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void conv2d_backward_weight(__global const real_t* x, __global const real_t* d_y, __global real_t* d_w, int n, int c,
                            int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g,
                            int bias) {
  __local float a_tile[TILE * TILE], b_tile[TILE * TILE];
  __local uchar b_ok[TILE * TILE];
  wgrad_tiles(x, d_y, d_w, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, a_tile, b_tile, b_ok);
}

// The same with a bias present: one more buffer (d_bias, written by conv2d_backward_bias).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void conv2d_backward_weight_bias(__global const real_t* x, __global const real_t* d_y, __global real_t* d_w,
                                 __global real_t* d_bias, int n, int c, int h, int w, int k, int r, int s, int sh,
                                 int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  __local float a_tile[TILE * TILE], b_tile[TILE * TILE];
  __local uchar b_ok[TILE * TILE];
  wgrad_tiles(x, d_y, d_w, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, a_tile, b_tile, b_ok);
}

// d_bias[k] = sum of d_y[:, k, :, :]: one work-item per filter (bias = 1 only).
__kernel void conv2d_backward_bias(__global const real_t* x, __global const real_t* d_y, __global real_t* d_w,
                                   __global real_t* d_bias, int n, int c, int h, int w, int k, int r, int s, int sh,
                                   int sw, int ph, int pw, int dh, int dw, int g, int bias) {
  const int ki = get_global_id(0);
  if (ki >= k) return;
  const int pq = conv_out(h, r, sh, ph, dh) * conv_out(w, s, sw, pw, dw);
  float acc = 0.0f;
  for (int ni = 0; ni < n; ++ni)
    for (int e = 0; e < pq; ++e) acc += LD(d_y, ((long)ni * k + ki) * pq + e);
  ST(d_bias, ki, acc);
}
