// Depthwise conv2d forward (g = c: each filter sees one input channel; k = c * multiplier). There is
// no GEMM to speak of (K = r*s), so the kernel is a direct one shaped for memory: a work-group covers
// WG_Q * QV outputs along a row times WG_P rows of one (image, filter); work-item t of the row takes
// the outputs t, t + WG_Q, ..., so that each of its loads and stores is a neighbour of the next
// work-item's (coalesced), and the neighbours' overlapping windows meet in the cache. The filter's
// r*s weights are the same address for the whole work-group (broadcast). Taps in the padding are
// skipped, not multiplied as zeros: each output is the convolution's sum exactly, taps in (r, s) order.
// Global size (WG_Q * cdiv(q, WG_Q*QV) * n*k, WG_P * cdiv(p, WG_P)): the images and filters ride on the
// first axis, which allows 2^31 work-groups (the others allow 65535 on NVIDIA).
#include "storage.h"

#ifndef WG_Q  // the plan (conv.plan) defines these; the defaults serve a build without it
#define WG_Q 32
#endif
#ifndef WG_P
#define WG_P 4
#endif
#ifndef QV
#define QV 2
#endif

void depthwise_tile(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                    int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int p, int q) {
  const int q_tiles = (q + WG_Q * QV - 1) / (WG_Q * QV);
  const long tile = get_group_id(0);
  const long nk = tile / q_tiles;  // image * k + filter
  const int kk = nk % k, channel = kk / (k / c), po = get_global_id(1);
  if (po >= p) return;
  const int q0 = (tile % q_tiles) * WG_Q * QV + get_local_id(0);
  __global const real_t* plane = x + ((long)(nk / k) * c + channel) * h * w;
  __global const real_t* filt = wt + (long)kk * r * s;
  float acc[QV];
  _Pragma("unroll") for (int v = 0; v < QV; ++v) acc[v] = 0.0f;
  for (int ri = 0; ri < r; ++ri) {
    const int hi = po * sh - ph + ri * dh;
    if (hi < 0 || hi >= h) continue;
    __global const real_t* row = plane + (long)hi * w;
    for (int si = 0; si < s; ++si) {
      const float wv = LD(filt, ri * s + si);
      _Pragma("unroll") for (int v = 0; v < QV; ++v) {
        const int wi = (q0 + v * WG_Q) * sw - pw + si * dw;
        if (wi >= 0 && wi < w) acc[v] = fma(LD(row, wi), wv, acc[v]);
      }
    }
  }
  const float b = bias ? LD(bias, kk) : 0.0f;
  __global real_t* out = y + (nk * p + po) * q;
  _Pragma("unroll") for (int v = 0; v < QV; ++v) {
    const int qo = q0 + v * WG_Q;
    if (qo < q) ST(out, qo, bias ? acc[v] + b : acc[v]);
  }
}

__kernel __attribute__((reqd_work_group_size(WG_Q, WG_P, 1)))
void conv2d_depthwise(__global const real_t* x, __global const real_t* wt, __global real_t* y, int c, int h, int w, int k, int r,
                      int s, int sh, int sw, int ph, int pw, int dh, int dw, int p, int q) {
  depthwise_tile(x, wt, 0, y, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, p, q);
}

__kernel __attribute__((reqd_work_group_size(WG_Q, WG_P, 1)))
void conv2d_depthwise_bias(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                           int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int p, int q) {
  depthwise_tile(x, wt, bias, y, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, p, q);
}
