// Depthwise conv2d forward (g = c: each filter sees one input channel; k = c * multiplier). There is
// no GEMM to speak of (K = r*s), so the kernel is a direct one shaped for memory: the output tensor is
// taken as one row of n*k*p*q pixels (a 7x7 plane does not leave most of a tile idle), a work-group
// of WG work-items covers WG * QV of them, and work-item t takes the pixels t, t + WG, ..., so that
// each of its loads and stores is a neighbour of the next work-item's (coalesced); neighbouring
// windows meet in the cache, and so do the filters' weights. Taps in the padding are skipped, not
// multiplied as zeros: each output is the convolution's sum exactly, taps in (r, s) order.
// Global size WG * cdiv(n*k*p*q, WG*QV): one axis, which allows 2^31 work-groups on NVIDIA.
#include "storage.h"

#ifndef WG  // the plan (conv.plan) defines these; the defaults serve a build without it
#define WG 64
#endif
#ifndef QV
#define QV 2
#endif

void depthwise_tile(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int n, int c,
                    int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int p, int q) {
  const int pq = p * q;
  const long total = (long)n * k * pq, o0 = get_group_id(0) * (long)(WG * QV) + get_local_id(0);
  __global const real_t* plane[QV];  // each pixel's input plane, filter and window corner
  __global const real_t* filt[QV];
  int h0[QV], w0[QV];
  float acc[QV];
  _Pragma("unroll") for (int v = 0; v < QV; ++v) {
    const long o = min(o0 + v * WG, total - 1);  // a pixel past the end repeats the last one, unstored
    const long nk = o / pq;                       // image * k + filter
    const int kk = nk % k, j = o - nk * pq, po = j / q;
    plane[v] = x + ((nk / k) * c + kk / (k / c)) * (long)h * w;
    filt[v] = wt + (long)kk * r * s;
    h0[v] = po * sh - ph;
    w0[v] = (j - po * q) * sw - pw;
    acc[v] = 0.0f;
  }
  for (int ri = 0; ri < r; ++ri)
    for (int si = 0; si < s; ++si)
      _Pragma("unroll") for (int v = 0; v < QV; ++v) {
        const int hi = h0[v] + ri * dh, wi = w0[v] + si * dw;
        if (hi >= 0 && hi < h && wi >= 0 && wi < w) acc[v] = fma(LD(plane[v], hi * w + wi), LD(filt[v], ri * s + si), acc[v]);
      }
  _Pragma("unroll") for (int v = 0; v < QV; ++v) {
    const long o = o0 + v * WG;
    if (o < total) ST(y, o, bias ? acc[v] + LD(bias, (o / pq) % k) : acc[v]);
  }
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void conv2d_depthwise(__global const real_t* x, __global const real_t* wt, __global real_t* y, int n, int c, int h, int w, int k,
                      int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int p, int q) {
  depthwise_tile(x, wt, 0, y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, p, q);
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void conv2d_depthwise_bias(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int n,
                           int c, int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int p, int q) {
  depthwise_tile(x, wt, bias, y, n, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, p, q);
}
