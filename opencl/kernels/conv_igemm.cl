// conv2d forward as an implicit GEMM on the tuned GEMM core (xgemm.h): per image and group,
//   Y[k, (p, q)] = W[k, (c, r, s)] @ X~[(c, r, s), (p, q)] (+ bias[k]),
// M = k/g output channels, N = p*q output pixels, K = c/g*r*s taps. W is A as stored ([K][C/g*R*S]:
// depth-contiguous); X~ is never built: each slab of B is gathered from x, four neighbouring output
// pixels per load, 0 where a tap falls in the padding (an output that comes out NaN is summed again
// without its padded taps by a second step, conv2d_igemm_nan). Global size (cdiv(p*q, NWG) * NDIMC,
// cdiv(k/g, MWG) * MDIMC, n * g).
#include "conv_igemm_nan.h"

#define XGEMM_PARAMS , struct ConvGeometry geo
#define XGEMM_SLAB_B(k0, rb) conv_slab_b(b, geo, n0, k0, n, k, rb)
void conv_slab_b(__global const real_t* x, struct ConvGeometry geo, int n0, int k0, int n, int k, float4* r);
#include "xgemm.h"

// The slab of B at depth k0, laid out as slab_b lays out a [K][N] operand: depth rows of four columns.
// Each load is one tap e = (c, r, s) of four neighbouring output pixels j .. j+3: the tap and the first
// pixel are found by division, the next pixels by stepping (divisions cost as much as the FMAs here).
// 0 outside the image (and past n, k).
void conv_slab_b(__global const real_t* x, struct ConvGeometry g, int n0, int k0, int n, int k, float4* r) {
  const int lid = get_local_id(1) * NDIMC + get_local_id(0), rs = g.r * g.s;
  _Pragma("unroll") for (int l = 0; l < B_LOADS; ++l) {
    const int idx = lid + l * WGS;
    const int e = k0 + idx / (NWG / 4), j = n0 + 4 * (idx % (NWG / 4));
    float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (e < k && j < n) {
      const int ci = e / rs, t = e - ci * rs, ri = t / g.s, si = t - ri * g.s;
      __global const real_t* plane = x + (long)ci * g.h * g.w;
      const int hoff = ri * g.dh - g.ph, woff = si * g.dw - g.pw;
      int po = j / g.q, qo = j - po * g.q;
      for (int d = 0; d < 4 && j + d < n; ++d) {
        const int hi = po * g.sh + hoff, wi = qo * g.sw + woff;
        if (hi >= 0 && hi < g.h && wi >= 0 && wi < g.w) v[d] = LD(plane, hi * g.w + wi);
        if (++qo == g.q) qo = 0, ++po;
      }
    }
    r[l] = (float4)(v[0], v[1], v[2], v[3]);
  }
}

// One tile of Y; the local slabs come from the kernel (OpenCL declares __local arrays only there).
void conv2d_igemm_tile(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c, int h,
                       int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q,
                       __local float* As, __local float* Bs, long z) {
  float acc[MWI * NWI];
  const int image = z / g, group = z % g, cg = c / g, kg = k / g, crs = cg * r * s, pq = p * q;
  const struct ConvGeometry geo = {cg, h, w, r, s, sh, sw, ph, pw, dh, dw, q};
  __global const real_t* xg = x + ((long)image * c + group * cg) * h * w;
  __global const real_t* wg = wt + (long)group * kg * crs;
  xgemm_accumulate(kg, pq, crs, wg, crs, 0, xg, 0, 0, As, Bs, acc, geo);
  y += ((long)image * k + group * kg) * pq;
  const int k0 = group * kg;
#define WITH_BIAS(v, row, col) (bias ? (v) + LD(bias, k0 + (row)) : (v))
  STORE_TILE(y, pq, kg, pq, WITH_BIAS)
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_igemm(__global const real_t* x, __global const real_t* wt, __global real_t* y, int c, int h, int w, int k, int r, int s,
                  int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_LOCALS
  conv2d_igemm_tile(x, wt, 0, y, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, As, Bs, z);
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_igemm_bias(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c, int h,
                       int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_LOCALS
  conv2d_igemm_tile(x, wt, bias, y, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, As, Bs, z);
}
