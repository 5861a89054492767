// 1x1 convolutions with stride 1 and no padding as plain GEMMs on the tuned GEMM core (xgemm.h): with
// r = s = 1, sh = sw = 1, ph = pw = 0 (dilation has no effect), each image's plane of a group is a
// [channels][h*w] matrix as stored, so nothing is gathered: per image and group,
//   forward:       Y[k', pixel]  = W[k', c']   @ X[c', pixel]   M = k/g, N = h*w, K = c/g
//   backward data: dX[c', pixel] = W^T[c', k'] @ dY[k', pixel]  M = c/g, N = h*w, K = k/g
// No tap falls in padding, so every product is a term of the convolution and the GEMM's sum is the
// convolution's (no NaN step as in conv_igemm.cl). Rows of h*w pixels take float4 loads and stores
// where h*w % 4 == 0. Global size (cdiv(h*w, NWG) * NDIMC, cdiv(M, MWG) * MDIMC, n * g).
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

// Backward data: A = W^T is the group's [k/g][c/g] weight read transposed (ta = 1, lda = c/g).
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_gemm_data(__global const real_t* wt, __global const real_t* d_y, __global real_t* d_x, int c, int hw, int k, int g) {
  XGEMM_LOCALS
  const int image = z / g, group = z % g, cg = c / g, kg = k / g;
  xgemm_accumulate(cg, hw, kg, wt + (long)group * kg * cg, cg, 1, d_y + ((long)image * k + group * kg) * hw, hw, 0, As, Bs, acc);
  d_x += ((long)image * c + group * cg) * hw;
#define PLAIN(v, row, col) (v)
  STORE_TILE(d_x, hw, cg, hw, PLAIN)
}
