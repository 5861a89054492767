// 1x1 convolutions with stride 1 and no padding forward on the tensor-core GEMM core (xgemm_mma.h;
// conv.plan's `mma_gemm`, f16 and bf16 on NVIDIA): conv_gemm.cl's plain GEMM per image and group,
//   Y[k', pixel] = W[k', c'] @ X[c', pixel] (+ bias[k'])    M = k/g, N = h*w, K = c/g,
// W as A (depth-contiguous), the image's plane of the group as a row-contiguous B, nothing gathered and
// no tap in padding (so no NaN step). PIXELS_M=1 computes Y transposed, M = h*w (A = the plane read
// transposed, ta = 1), N = k/g (B = W as [N][K], tb = 1), stored back into [k'][pixel]: for a few
// output channels the pixels fill the tall side of a tile (as conv_igemm_mma.cl's PIXELS_M).
// Global size (cdiv(N, NWG) * WGS, cdiv(M, MWG), n * g).
// Backward data (conv2d_bwd_data's `wgmma_gemm` and `mma_gemm`): dX[c', pixel] = W^T[c', k'] @ dY[k', pixel],
// M = c/g, N = h*w, K = k/g, W read transposed (ta = 1); PIXELS_M=1: dX^T = dY^T (ta = 1) @ W (tb = 0).
// Backward weight (conv2d_bwd_weight's `wgmma_gemm`, one group): dW[k, c] = the sum over images of
// dY[k, pixel] @ X^T[pixel, c], M = k, N = c, K = h*w an image, straight from NCHW (no packs).
#include "xgemm_mma.h"
#include "columns.h"
#include "conv_mma_bias_grad.h"

#ifndef PIXELS_M
#define PIXELS_M 0
#endif

// One tile of Y of image and group z; bias may be 0.
void conv2d_gemm_mma_tile(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                          int hw, int k, int g, __local uint4* as4, __local uint4* bs4, float acc[MFR * NFR * 4], __local float* emu,
                          long z) {
  const int image = z / g, group = z % g, cg = c / g, kg = k / g;
  const long w_offset = (long)group * kg * cg, x_offset = ((long)image * c + group * cg) * hw, y_offset = ((long)image * k + group * kg) * hw;
  const int w_aligned = cg % 8 == 0 && w_offset % 8 == 0, x_aligned = hw % 8 == 0 && x_offset % 8 == 0;
  const int k0 = group * kg;
#if PIXELS_M
  xgemm_mma_accumulate(hw, kg, cg, RAW(x) + x_offset, hw, 1, x_aligned, RAW(wt) + w_offset, cg, 1, w_aligned, as4, bs4, acc, emu);
  y += y_offset;
#define Y_AT(row, col) (y + (long)(col) * hw + (row))  // (pixel, channel) into [channel][pixel]
#define WITH_BIAS(v, row, col) (bias ? (v) + LD(bias, k0 + (col)) : (v))
  STORE_FRAGMENTS_WHERE(Y_AT, 0, hw, kg, WITH_BIAS)
#else
  xgemm_mma_accumulate(kg, hw, cg, RAW(wt) + w_offset, cg, 0, w_aligned, RAW(x) + x_offset, hw, 0, x_aligned, as4, bs4, acc, emu);
#define WITH_BIAS(v, row, col) (bias ? (v) + LD(bias, k0 + (row)) : (v))
  STORE_FRAGMENTS(y + y_offset, hw, y_offset, kg, hw, WITH_BIAS)
#endif
}

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_gemm_mma(__global const real_t* x, __global const real_t* wt, __global real_t* y, int c, int hw, int k, int g) {
  XGEMM_MMA_LOCALS
  conv2d_gemm_mma_tile(x, wt, 0, y, c, hw, k, g, as4, bs4, acc, emu, get_group_id(2));
}

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_gemm_mma_bias(__global const real_t* x, __global const real_t* wt, __global const real_t* bias, __global real_t* y, int c,
                          int hw, int k, int g) {
  XGEMM_MMA_LOCALS
  conv2d_gemm_mma_tile(x, wt, bias, y, c, hw, k, g, as4, bs4, acc, emu, get_group_id(2));
}

// Backward data: one tile of dX of image and group z.
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_gemm_mma_data(__global const real_t* wt, __global const real_t* d_y, __global real_t* d_x, int c, int hw, int k, int g) {
  XGEMM_MMA_LOCALS
  const long z = get_group_id(2);
  const int image = z / g, group = z % g, cg = c / g, kg = k / g;
  const long w_offset = (long)group * kg * cg, y_offset = ((long)image * k + group * kg) * hw, x_offset = ((long)image * c + group * cg) * hw;
  const int w_aligned = cg % 8 == 0 && w_offset % 8 == 0, y_aligned = hw % 8 == 0 && y_offset % 8 == 0;
#define PLAIN_DATA(v, row, col) (v)
#if PIXELS_M
  xgemm_mma_accumulate(hw, cg, kg, RAW(d_y) + y_offset, hw, 1, y_aligned, RAW(wt) + w_offset, cg, 0, w_aligned, as4, bs4, acc, emu);
  d_x += x_offset;
#define DX_AT(row, col) (d_x + (long)(col) * hw + (row))  // (pixel, channel) into [channel][pixel]
  STORE_FRAGMENTS_WHERE(DX_AT, 0, hw, cg, PLAIN_DATA)
#else
  xgemm_mma_accumulate(cg, hw, kg, RAW(wt) + w_offset, cg, 1, w_aligned, RAW(d_y) + y_offset, hw, 0, y_aligned, as4, bs4, acc, emu);
  STORE_FRAGMENTS(d_x + x_offset, hw, x_offset, cg, hw, PLAIN_DATA)
#endif
}

// Backward weight: image i's pixels cut PARTS ways (each a multiple of KWG deep); work-group z = i PARTS
// + part writes its float partial of dW, partial [n PARTS][k][c]; column_sums_finish (columns.h) adds
// the n PARTS partials up in z's order, so each dW element's sum has a fixed order (the same bits every
// run). Global size (cdiv(c, NWG) * WGS, cdiv(k, MWG), n * PARTS).
#ifndef PARTS
#define PARTS 1
#endif
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void conv2d_gemm_mma_weight(__global const real_t* x, __global const real_t* d_y, __global float* partial, int c, int hw, int k) {
  XGEMM_MMA_LOCALS
  const long z = get_group_id(2);
  const int image = z / PARTS, part = z % PARTS, chunk = (hw + PARTS * KWG - 1) / (PARTS * KWG) * KWG;
  const int lo = min(part * chunk, hw), depth = min(chunk, hw - lo);
  const long y_offset = (long)image * k * hw + lo, x_offset = (long)image * c * hw + lo;
  const int aligned = hw % 8 == 0;  // lo is a multiple of KWG, so the offsets are multiples of 8 with hw
  xgemm_mma_accumulate(k, c, depth, RAW(d_y) + y_offset, hw, 0, aligned, RAW(x) + x_offset, hw, 1, aligned, as4, bs4, acc, emu);
  __global float* const c_at_ = partial + z * k * c;
  const long ldc_at_ = c;
#define PLAIN_WEIGHT(v, row, col) (v)
  STORE_FRAGMENTS_AS(ROW_MAJOR_AT, c % 2 == 0, k, c, PLAIN_WEIGHT, ST2_FLOAT, ST_FLOAT)
}
