// conv2d as Winograd's F(2x2, 3x3) in float32, judged in its numeric mode winograd(2,3)
// (core/numeric_mode.hpp, docs/verification.md "Numeric modes"); the launch: conv_winograd.blocks.
// Winograd's minimal filtering (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks",
// 2016), as cuDNN's and many hand-written 3x3 kernels compute it: each 2x2 output tile is
// A^T [ (G g G^T) (.) (B^T d B) ] A over the 4x4 input tile d that covers it, (.) elementwise, summed
// over input channels; the channel sums of the 16 elementwise products are 16 GEMMs (here on our FP32
// core, xgemm.h), 2.25x fewer multiply-adds than the direct sum. Exact in exact arithmetic, and exact
// here on integer inputs (G' = 2 G has whole entries, the / 4 at the end is exact). But B^T d B adds
// and subtracts neighbouring inputs, and G g G^T neighbouring weights, before they meet: an outlier of
// 2^12 (the normal values' 1 in 64) enters terms whose weights the direct sum never pairs it with, the
// output transform cancels them, and their rounding stays: 10-100x the exact contract's bound of any
// summation order of the convolution's own terms (the catalogue's conv2d_winograd_f2x3_outliers), and
// within winograd(2,3)'s, whose bound follows the transforms' growth.
// Steps (conv_winograd.blocks):
//   weights: U[e][o][i] = (G' g G'^T)[e] of filter (o, i)
//   input:   V[e][i][t] = (B^T d B)[e] of channel i's tile t = (image, tile row, tile column)
//   gemm:    M[e][o][t] = sum_i U[e][o][i] V[e][i][t]        (16 GEMMs, work-group layer z = e)
//   output:  y[image][o][2 tr + a][2 tc + b] = (A^T M A)[a][b] / 4 (+ bias), inside the output only
//   fix:     each non-finite output summed again directly: the transforms turn an Inf input into
//            Inf - Inf = NaN, a padded zero (no term) times an infinite weight into 0 * Inf, and may
//            overflow near FLT_MAX; each leaves its output non-finite, never finite, so this mends them
//            all. Without it the bug would show as non-finite first; with it, it shows as what it is.
// G'[1][0] (1): a define only so that the catalogue can plant it off by 1e-3 (its mode must catch that).
#ifndef WINOGRAD_G10
#define WINOGRAD_G10 1.0f
#endif

#define XGEMM_PARAMS , __global const float *fa, __global const float *fb
#define XGEMM_SLAB_A(k0, ra) slab_a_float(fa, lda, !ta, m0, k0, m, k, ra)
#define XGEMM_SLAB_B(k0, rb) slab_b_float(fb, ldb, tb, n0, k0, n, k, rb)
#include "xgemm.h"

// The filters in the transformed domain: work-item f is filter (o, i) of wt [co][ci][3][3].
// Global size roundup(co * ci, 256).
__kernel void conv2d_winograd_weights(__global const real_t* wt, __global float* u, int co, int ci) {
  const int f = get_global_id(0);
  if (f >= co * ci) return;
  const int o = f / ci, i = f % ci;
  float g[3][3];
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b)
      g[a][b] = LD(wt, ((long)o * ci + i) * 9 + a * 3 + b);
  float t[4][3];  // G' g, G' = [2 0 0; 1 1 1; 1 -1 1; 0 0 2]
  for (int b = 0; b < 3; ++b) {
    t[0][b] = 2.0f * g[0][b];
    t[1][b] = WINOGRAD_G10 * g[0][b] + g[1][b] + g[2][b];
    t[2][b] = g[0][b] - g[1][b] + g[2][b];
    t[3][b] = 2.0f * g[2][b];
  }
  const long plane = (long)co * ci;
  for (int a = 0; a < 4; ++a) {  // (G' g) G'^T
    u[(4 * a + 0) * plane + f] = 2.0f * t[a][0];
    u[(4 * a + 1) * plane + f] = t[a][0] + t[a][1] + t[a][2];
    u[(4 * a + 2) * plane + f] = t[a][0] - t[a][1] + t[a][2];
    u[(4 * a + 3) * plane + f] = 2.0f * t[a][2];
  }
}

// The input tiles in the transformed domain: work-item (t, i) is channel i's 4x4 tile t, rows
// 2 tr - ph .. + 3 and columns 2 tc - pw .. + 3 of its image (zeros outside). th x tw tiles an image
// (the output's rows and columns halved, rounded up); tiles: all of them, over every image.
// Global size (roundup(tiles, 64), ci).
__kernel void conv2d_winograd_input(__global const real_t* in, __global float* v, int ci, int ih, int iw, int ph, int pw, int th,
                                    int tw, int tiles) {
  const int t = get_global_id(0), i = get_global_id(1);
  if (t >= tiles) return;
  const int tc = t % tw, tr = t / tw % th, image = t / (tw * th);
  const int r0 = 2 * tr - ph, c0 = 2 * tc - pw;
  __global const real_t* plane = in + ((long)image * ci + i) * ih * iw;
  float d[4][4];
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const int row = r0 + a, col = c0 + b;
      d[a][b] = row >= 0 && row < ih && col >= 0 && col < iw ? LD(plane, (long)row * iw + col) : 0.0f;
    }
  float s[4][4];  // B^T d, B^T = [1 0 -1 0; 0 1 1 0; 0 -1 1 0; 0 1 0 -1]
  for (int b = 0; b < 4; ++b) {
    s[0][b] = d[0][b] - d[2][b];
    s[1][b] = d[1][b] + d[2][b];
    s[2][b] = d[2][b] - d[1][b];
    s[3][b] = d[1][b] - d[3][b];
  }
  const long plane_v = (long)ci * tiles, at = (long)i * tiles + t;
  for (int a = 0; a < 4; ++a) {  // (B^T d) B
    v[(4 * a + 0) * plane_v + at] = s[a][0] - s[a][2];
    v[(4 * a + 1) * plane_v + at] = s[a][1] + s[a][2];
    v[(4 * a + 2) * plane_v + at] = s[a][2] - s[a][1];
    v[(4 * a + 3) * plane_v + at] = s[a][1] - s[a][3];
  }
}

// The 16 GEMMs M[e] = U[e] (co x ci) @ V[e] (ci x tiles), e = the work-group's layer z. Global size
// (cdiv(tiles, NWG) * NDIMC, cdiv(co, MWG) * MDIMC, 16).
#define PLAIN(v, row, col) (v)
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_winograd_gemm(__global const float* u, __global const float* v, __global float* m, int co, int ci, int tiles) {
  XGEMM_LOCALS
  xgemm_accumulate(co, tiles, ci, 0, ci, 0, 0, tiles, 0, As, Bs, acc, u + z * co * ci, v + z * ci * tiles);
  m += z * co * tiles;
  STORE_TILE_AS(m, tiles, co, tiles, PLAIN, float, stv4_float, ST_FLOAT)
}

// The output tiles: work-item (t, o) is output channel o's 2x2 tile t, (A^T M A) / 4, A^T = [1 1 1 0;
// 0 1 -1 -1], stored where it lies inside the output (oh x ow). bias may be 0.
// Global size (roundup(tiles, 64), co).
void winograd_output(__global const float* m, __global const real_t* bias, __global real_t* out, int co, int oh, int ow, int tiles) {
  const int t = get_global_id(0), o = get_global_id(1);
  if (t >= tiles) return;
  const int tw = (ow + 1) / 2, th = (oh + 1) / 2;
  const int tc = t % tw, tr = t / tw % th, image = t / (tw * th);
  const long plane = (long)co * tiles, at = (long)o * tiles + t;
  float x[4][4];
  for (int e = 0; e < 16; ++e) x[e / 4][e % 4] = m[e * plane + at];
  float s[2][4];  // A^T M
  for (int b = 0; b < 4; ++b) {
    s[0][b] = x[0][b] + x[1][b] + x[2][b];
    s[1][b] = x[1][b] - x[2][b] - x[3][b];
  }
  const float add = bias ? LD(bias, o) : 0.0f;
  __global real_t* y = out + ((long)image * co + o) * oh * ow;
  for (int a = 0; a < 2; ++a) {  // (A^T M) A, then / 4 for G' = 2 G on both sides (exact)
    const int row = 2 * tr + a, col = 2 * tc;
    if (row >= oh) break;
    const float y0 = 0.25f * (s[a][0] + s[a][1] + s[a][2]), y1 = 0.25f * (s[a][1] - s[a][2] - s[a][3]);
    ST(y, (long)row * ow + col, bias ? y0 + add : y0);
    if (col + 1 < ow) ST(y, (long)row * ow + col + 1, bias ? y1 + add : y1);
  }
}

__kernel void conv2d_winograd_output(__global const float* m, __global real_t* out, int co, int oh, int ow, int tiles) {
  winograd_output(m, 0, out, co, oh, ow, tiles);
}

__kernel void conv2d_winograd_output_bias(__global const float* m, __global const real_t* bias, __global real_t* out, int co, int oh,
                                          int ow, int tiles) {
  winograd_output(m, bias, out, co, oh, ow, tiles);
}

// Output (o, row, col) of one image as the direct sum over channels and taps; taps outside the input
// are absent (no term), as in the convolution's definition.
float winograd_direct(__global const real_t* in, __global const real_t* wt, int ci, int ih, int iw, int ph, int pw, int o, int row, int col) {
  float acc = 0.0f;
  for (int i = 0; i < ci; ++i)
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) {
        const int r = row - ph + a, c = col - pw + b;
        if (r < 0 || r >= ih || c < 0 || c >= iw) continue;
        acc = fma(LD(in, ((long)i * ih + r) * iw + c), LD(wt, ((long)o * ci + i) * 9 + a * 3 + b), acc);
      }
  return acc;
}

// The fix step: a work-item scans 8 outputs and sums each non-finite one again directly (the head
// comment says why that suffices). Global size roundup(cdiv(numel(out), 8), 256).
void winograd_fix(__global const real_t* in, __global const real_t* wt, __global const real_t* bias, __global real_t* out, int n, int ci,
                  int ih, int iw, int co, int oh, int ow, int ph, int pw) {
  const long total = (long)n * co * oh * ow, o0 = get_global_id(0) * 8;
  for (long q = o0; q < min(o0 + 8, total); ++q) {
    if (isfinite(LD(out, q))) continue;
    const int col = q % ow, row = q / ow % oh, o = q / ((long)oh * ow) % co, image = q / ((long)co * oh * ow);
    const float v = winograd_direct(in + (long)image * ci * ih * iw, wt, ci, ih, iw, ph, pw, o, row, col);
    ST(out, q, bias ? v + LD(bias, o) : v);
  }
}

__kernel void conv2d_winograd_fix(__global const real_t* in, __global const real_t* wt, __global real_t* out, int n, int ci, int ih, int iw,
                                  int co, int oh, int ow, int ph, int pw) {
  winograd_fix(in, wt, 0, out, n, ci, ih, iw, co, oh, ow, ph, pw);
}

__kernel void conv2d_winograd_bias_fix(__global const real_t* in, __global const real_t* wt, __global const real_t* bias, __global real_t* out,
                                       int n, int ci, int ih, int iw, int co, int oh, int ow, int ph, int pw) {
  winograd_fix(in, wt, bias, out, n, ci, ih, iw, co, oh, ow, ph, pw);
}
