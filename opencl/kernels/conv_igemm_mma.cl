// conv2d forward as an implicit GEMM on the tensor-core GEMM core (xgemm_mma.h; conv.plan's `mma_igemm`,
// f16 and bf16 on NVIDIA): conv_igemm.cl's GEMM per image and group,
//   Y[k, (p, q)] = W[k, (c, r, s)] @ X~[(c, r, s), (p, q)] (+ bias[k]),
// with W as A as stored (depth-contiguous) and each slab of X~ gathered from x by conv_slab_b_mma into
// the registers the core's row-contiguous B takes: two neighbouring taps of eight neighbouring output
// pixels a chunk, 0 where a tap falls in the padding. Products are exact in float and summed in float;
// a padded tap with an Inf or NaN weight makes NaN of a finite output, which the second step
// (conv_igemm_nan.h) sums again directly. Global size (cdiv(p*q, NWG) * WGS, cdiv(k/g, MWG), n * g).
#include "conv_igemm_nan.h"

#define MMA_PARAMS , struct ConvGeometry geo
#define MMA_SLAB_B(k0, r) conv_slab_b_mma(pb, geo, n0, k0, n, k, r)
void conv_slab_b_mma(__global const ushort* x, struct ConvGeometry g, int n0, int k0, int n, int k, uint4* r);
#include "xgemm_mma.h"

// Chunk l of this work-item's share of the slab at depth k0, as slab_b loads a row-contiguous operand:
// taps e = k0 + 2 pr and e + 1 (r[2l], r[2l + 1]) of output pixels j .. j + 7, two 16-bit values a word.
// A tap's (c, r, s) and the first pixel's (p, q) come by division, the next pixels by stepping.
void conv_slab_b_mma(__global const ushort* x, struct ConvGeometry g, int n0, int k0, int n, int k, uint4* r) {
  const int lid = get_local_id(0), rs = g.r * g.s;
#pragma unroll
  for (int l = 0; l < B_CHUNKS; ++l) {
    const int c = lid + l * WGS;
    if (B_CHUNKS * WGS > NWG * KWG / 16 && c >= NWG * KWG / 16) break;  // past the slab
    const int pr = c % (KWG / 2), j = n0 + 8 * (c / (KWG / 2));
    const int po0 = j / g.q, qo0 = j - po0 * g.q;
    uint words[2][4];
#pragma unroll
    for (int t = 0; t < 2; ++t) {
      uint v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
      const int e = k0 + 2 * pr + t;
      if (e < k && j < n) {
        const int ci = e / rs, rem = e - ci * rs, ri = rem / g.s, si = rem - ri * g.s;
        __global const ushort* plane = x + (long)ci * g.h * g.w;
        const int hoff = ri * g.dh - g.ph, woff = si * g.dw - g.pw;
        int po = po0, qo = qo0;
#pragma unroll
        for (int d = 0; d < 8; ++d) {
          const int hi = po * g.sh + hoff, wi = qo * g.sw + woff;
          if (j + d < n && hi >= 0 && hi < g.h && wi >= 0 && wi < g.w) v[d] = plane[hi * g.w + wi];
          if (++qo == g.q) qo = 0, ++po;
        }
      }
#pragma unroll
      for (int i = 0; i < 4; ++i) words[t][i] = v[2 * i] | v[2 * i + 1] << 16;
    }
    r[2 * l] = (uint4)(words[0][0], words[0][1], words[0][2], words[0][3]);
    r[2 * l + 1] = (uint4)(words[1][0], words[1][1], words[1][2], words[1][3]);
  }
}

// One tile of Y of image and group z; bias may be 0.
void conv2d_igemm_mma_tile(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                           int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q,
                           __local uint4* as4, __local uint4* bs4, float acc[MFR * NFR * 4], __local float* emu, long z) {
  const int image = z / g, group = z % g, cg = c / g, kg = k / g, crs = cg * r * s, pq = p * q;
  const struct ConvGeometry geo = {cg, h, w, r, s, sh, sw, ph, pw, dh, dw, q};
  const long w_offset = (long)group * kg * crs, y_offset = ((long)image * k + group * kg) * pq;
  xgemm_mma_accumulate(kg, pq, crs, RAW(wt) + w_offset, crs, 0, crs % 8 == 0 && w_offset % 8 == 0,
                       RAW(x) + ((long)image * c + group * cg) * h * w, 0, 0, 0, as4, bs4, acc, emu, geo);
  const int k0 = group * kg;
#define WITH_BIAS(v, row, col) (bias ? (v) + LD(bias, k0 + (row)) : (v))
  STORE_FRAGMENTS(y + y_offset, pq, y_offset, kg, pq, WITH_BIAS)
}

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_igemm_mma(__global const real_t* x, __global const real_t* wt, __global real_t* y, int c, int h, int w, int k, int r, int s,
                      int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_MMA_LOCALS
  conv2d_igemm_mma_tile(x, wt, 0, y, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, as4, bs4, acc, emu, get_group_id(2));
}

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_igemm_mma_bias(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                           int h, int w, int k, int r, int s, int sh, int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  XGEMM_MMA_LOCALS
  conv2d_igemm_mma_tile(x, wt, bias, y, c, h, w, k, r, s, sh, sw, ph, pw, dh, dw, g, p, q, as4, bs4, acc, emu, get_group_id(2));
}
