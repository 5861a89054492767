// 1x1 convolutions with stride 1 and no padding as plain GEMMs on the tuned GEMM core (xgemm.h): with
// r = s = 1, sh = sw = 1, ph = pw = 0 (dilation has no effect), each image's plane of a group is a
// [channels][h*w] matrix as stored, so nothing is gathered: per image and group,
//   forward:       Y[k', pixel]  = W[k', c']   @ X[c', pixel]   M = k/g, N = h*w, K = c/g
//   backward data: dX[c', pixel] = W^T[c', k'] @ dY[k', pixel]  M = c/g, N = h*w, K = k/g
// No tap falls in padding, so every product is a term of the convolution and the GEMM's sum is the
// convolution's (no NaN step as in conv_igemm.cl). Rows of h*w pixels take float4 loads and stores
// where h*w % 4 == 0. Global size (cdiv(h*w, NWG) * NDIMC, cdiv(M, MWG) * MDIMC, n * g).
// Backward data at stride sh x sw (1x1, no padding; conv.plan's `gemm_strided`): the same GEMM over d_y's
// p*q pixels into float scratch, then conv2d_gemm_data_spread puts each sum at its pixel (i*sh, j*sw)
// of d_x; no tap reaches the other pixels, so they are 0 (a sum of no terms).
#include "xgemm.h"

// One tile of the forward GEMM of image and group z; bias may be 0.
void conv2d_gemm_tile(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                      int hw, int k, int g, __local float* As, __local float* Bs, long z) {
  float acc[MWI * NWI];
  const int image = z / g, group = z % g, cg = c / g, kg = k / g;
  xgemm_accumulate(kg, hw, cg, wt + (long)group * kg * cg, cg, 0, x + ((long)image * c + group * cg) * hw, hw, 0, As, Bs, acc);
  y += ((long)image * k + group * kg) * hw;
  const int k0 = group * kg;
#define WITH_BIAS(v, row, col) (bias ? (v) + LD(bias, k0 + (row)) : (v))
  STORE_TILE(y, hw, kg, hw, WITH_BIAS)
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_gemm(__global const real_t* x, __global const real_t* wt, __global real_t* y, int c, int hw, int k, int g) {
  XGEMM_LOCALS
  conv2d_gemm_tile(x, wt, 0, y, c, hw, k, g, As, Bs, z);
}

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_gemm_bias(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                      int hw, int k, int g) {
  XGEMM_LOCALS
  conv2d_gemm_tile(x, wt, bias, y, c, hw, k, g, As, Bs, z);
}

// Backward data: A = W^T is the group's [k/g][c/g] weight read transposed (ta = 1, lda = c/g). The
// accumulators of image and group z; returns the offset of its [c/g][hw] plane in d_x.
long conv2d_gemm_data_tile(__global const real_t* wt, __global const real_t* d_y, int c, int hw, int k, int g,
                           __local float* As, __local float* Bs, float acc[MWI * NWI], long z) {
  const int image = z / g, group = z % g, cg = c / g, kg = k / g;
  xgemm_accumulate(cg, hw, kg, wt + (long)group * kg * cg, cg, 1, d_y + ((long)image * k + group * kg) * hw, hw, 0, As, Bs, acc);
  return ((long)image * c + group * cg) * hw;
}
#define PLAIN(v, row, col) (v)

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_gemm_data(__global const real_t* wt, __global const real_t* d_y, __global real_t* d_x, int c, int hw, int k, int g) {
  XGEMM_LOCALS
  d_x += conv2d_gemm_data_tile(wt, d_y, c, hw, k, g, As, Bs, acc, z);
  STORE_TILE(d_x, hw, c / g, hw, PLAIN)
}

// gemm_strided's first step: the same GEMM over d_y's p*q pixels, its sums kept in float (rounded to
// the storage format once, by the spread).
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_gemm_data_cols(__global const real_t* wt, __global const real_t* d_y, __global float* cols, int c, int pq, int k, int g) {
  XGEMM_LOCALS
  cols += conv2d_gemm_data_tile(wt, d_y, c, pq, k, g, As, Bs, acc, z);
  STORE_TILE_AS(cols, pq, c / g, pq, PLAIN, float, stv4_float, ST_FLOAT)
}

// Spreads the products cols [n*c][p*q] over d_x [n*c][h][w]: pixel (i*sh, j*sw) takes product (i, j),
// every other pixel 0. A work-item writes four neighbours of a row (one store where w % 4 == 0).
// Global size (roundup(cdiv(w, 4) * h, 256), n * c).
__kernel void conv2d_gemm_data_spread(__global const float* cols, __global real_t* d_x, int h, int w, int sh, int sw, int p,
                                      int q) {
  const int quads = (w + 3) / 4, t = get_global_id(0);
  if (t >= quads * h) return;
  const long plane = get_global_id(1);
  const int row = t / quads, col = (t - row * quads) * 4;
  __global const float* src = cols + (plane * p + row / sh) * q;
  const bool hit_row = row % sh == 0;
  float v[4];
  for (int e = 0; e < 4; ++e) v[e] = hit_row && col + e < w && (col + e) % sw == 0 ? src[(col + e) / sw] : 0.0f;
  __global real_t* out = d_x + (plane * h + row) * w + col;
  if (w % 4 == 0)
    ST4(out, ((float4)(v[0], v[1], v[2], v[3])));
  else
    for (int e = 0; e < 4 && col + e < w; ++e) ST(out, e, v[e]);
}
