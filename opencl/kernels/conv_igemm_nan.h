// What the implicit-GEMM convolutions (conv_igemm.cl, conv_igemm_mma.cl, conv_igemm_data.cl, conv_igemm_weight.cl) share: the
// geometry their gathers read, and the direct sums of the steps that sum each NaN output again.
#ifndef CONV_IGEMM_NAN_H
#define CONV_IGEMM_NAN_H
#include "storage.h"

struct ConvGeometry {
  int c, h, w, r, s, sh, sw, ph, pw, dh, dw, q;
};

// Output (kl, j) of one image and group as the direct sum: padded taps are absent, not zeros times the
// weight. The GEMM multiplies them as zeros, which turns a padded tap with an Inf or NaN weight into
// NaN where the convolution is finite: such outputs (NaN from the GEMM, rare) are summed again by this,
// in a second step (one call site, not one per accumulator: that keeps the build small).
float direct_output(__global const real_t* x, __global const real_t* wt, struct ConvGeometry g, int kl, int j) {
  const int crs = g.c * g.r * g.s;
  float acc = 0.0f;
  for (int e = 0; e < crs; ++e) {
    const int rs = g.r * g.s, ci = e / rs, ri = (e / g.s) % g.r, si = e % g.s;
    const int hi = (j / g.q) * g.sh - g.ph + ri * g.dh, wi = (j % g.q) * g.sw - g.pw + si * g.dw;
    if (hi >= 0 && hi < g.h && wi >= 0 && wi < g.w) acc = fma(LD(x, ((long)ci * g.h + hi) * g.w + wi), LD(wt, (long)kl * crs + e), acc);
  }
  return acc;
}

// d_w[kk, col] as the direct sum over every output position: padded taps are absent, not zeros times
// d_y (the GEMM turns an Inf or NaN in d_y there into NaN where the gradient is finite).
float weight_direct(__global const real_t* x, __global const real_t* d_y, int n, int c, int h, int w, int k, int r, int s, int sh,
                    int sw, int ph, int pw, int dh, int dw, int g, int p, int q, int kk, int col) {
  const int cg = c / g, group = kk / (k / g), cl = col / (r * s), a = (col / s) % r, b = col % s;
  float acc = 0.0f;
  for (int ni = 0; ni < n; ++ni)
    for (int pi = 0; pi < p; ++pi) {
      const int hi = pi * sh - ph + a * dh;
      if (hi < 0 || hi >= h) continue;
      for (int qi = 0; qi < q; ++qi) {
        const int wi = qi * sw - pw + b * dw;
        if (wi >= 0 && wi < w)
          acc = fma(LD(d_y, (((long)ni * k + kk) * p + pi) * q + qi), LD(x, (((long)ni * c + group * cg + cl) * h + hi) * w + wi), acc);
      }
    }
  return acc;
}

// d_x[o] (o the flat index into [n][c][h][w]) as conv2d_bwd_data's direct sum: over the filters of its
// channel's group and the taps (u, v) whose output position ((hi + ph - u dh) / sh, (wi + pw - v dw) / sw)
// exists in d_y. Taps outside d_y are absent, not zeros times the weight (the GEMMs' gathers turn an Inf
// or NaN weight there into NaN where the gradient is finite).
float data_direct(__global const real_t* wt, __global const real_t* d_y, int c, int h, int w, int k, int r, int s, int sh, int sw,
                  int ph, int pw, int dh, int dw, int g, int p, int q, long o) {
  const int wi = o % w, hi = o / w % h, ci = o / ((long)h * w) % c, image = o / ((long)c * h * w);
  const int cg = c / g, kg = k / g, group = ci / cg;
  float acc = 0.0f;
  for (int kk = group * kg; kk < (group + 1) * kg; ++kk)
    for (int u = 0; u < r; ++u) {
      const int hoff = hi + ph - u * dh;
      if (hoff < 0 || hoff % sh != 0 || hoff / sh >= p) continue;
      for (int v = 0; v < s; ++v) {
        const int woff = wi + pw - v * dw;
        if (woff >= 0 && woff % sw == 0 && woff / sw < q)
          acc = fma(LD(d_y, (((long)image * k + kk) * p + hoff / sh) * q + woff / sw), LD(wt, (((long)kk * cg + ci % cg) * r + u) * s + v), acc);
      }
    }
  return acc;
}

// Whether any of the 8 outputs from y + o is NaN, in 16-byte loads (o a multiple of 8; y's buffer is
// aligned): the 16-bit formats' NaNs are their bit patterns above Inf's, sign aside.
#if defined(DTYPE_F16) || defined(DTYPE_BF16)
#if defined(DTYPE_F16)
#define INF_BITS 0x7C00u
#else
#define INF_BITS 0x7F80u
#endif
#define NAN_PAIR(v) (((v) & 0x7FFFu) > INF_BITS || (((v) >> 16) & 0x7FFFu) > INF_BITS)
bool any_nan8(__global const real_t* y, long o) {
  const uint4 v = *(__global const uint4*)((__global const ushort*)y + o);
  return NAN_PAIR(v.x) || NAN_PAIR(v.y) || NAN_PAIR(v.z) || NAN_PAIR(v.w);
}
#else
bool any_nan8(__global const real_t* y, long o) {
  const float4 a = vload4(0, y + o), b = vload4(1, y + o);
  return any(isnan(a)) || any(isnan(b));
}
#endif

// The second step: each NaN of y summed again directly (direct_output). A work-item scans 8 outputs
// (one work-item an output took 24 us over a 6.4M-output y on the H100, 30% of the GEMM's time).
// Global size roundup(cdiv(numel(y), 8), 256).
void igemm_nan(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int n, int c, int h,
               int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  const long total = (long)n * k * p * q, o0 = get_global_id(0) * 8;
  if (o0 >= total || (o0 + 8 <= total && !any_nan8(y, o0))) return;
  for (long o = o0; o < min(o0 + 8, total); ++o) {
    if (!isnan(LD(y, o))) continue;
    const int j = o % (p * q), kk = (o / ((long)p * q)) % k, image = o / ((long)k * p * q);
    const int cg = c / g, kg = k / g, group = kk / kg;
    const struct ConvGeometry geo = {cg, h, w, r, s, sh, sw, ph, pw, dh, dw, q};
    const float v = direct_output(x + ((long)image * c + group * cg) * h * w, wt + (long)group * kg * cg * r * s, geo, kk % kg, j);
    ST(y, o, bias ? v + LD(bias, kk) : v);
  }
}

__kernel void conv2d_igemm_nan(__global const real_t* x, __global const real_t* wt, __global real_t* y, int n, int c, int h, int w, int k,
                               int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  igemm_nan(x, wt, 0, y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q);
}

__kernel void conv2d_igemm_bias_nan(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y,
                                    int n, int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g,
                                    int p, int q) {
  igemm_nan(x, wt, bias, y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q);
}

#endif  // CONV_IGEMM_NAN_H
