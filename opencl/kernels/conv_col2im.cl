// conv2d backward data as a GEMM and a gather (col2im): a stem's few channels, and filters of more than
// one tap. The phase-split implicit GEMM (conv_igemm_data.cl) has M = c/g rows, 3 of a tile's 32 in a
// stem, and at a row stride its phases hold few taps (at 3x3 stride 2: 4, 2, 2 and 1), GEMMs of short
// depth; here the taps join the channels as rows instead, over all images at once:
//   Z[group][(c', r, s), (image, p, q)] = W[k', (c', r, s)]^T @ d_y[group's k', (image, p, q)]
// a plain GEMM (M = c/g*r*s, N = n*p*q, K = k/g) into the float scratch `columns`, over d_y laid out
// [k][n][p*q] first (`dy_packed`, in float: a copy of d_y, 1/(c/k*r*s) of the columns); then each d_x
// element sums the Z entries of the taps that reach it, in tap order (col2im as a gather: no atomics,
// the same bits every run). Every term is a product the convolution has (no padded taps in the GEMM,
// so no 0 * Inf), and the sum is the full convolution's. One GEMM a group over every image: a GEMM an
// image left a 7x7 plane's 49 columns in a 64-wide tile, and 1152 work-groups a layer where this has 900.

#define XGEMM_PARAMS , __global const float* b_float
#define XGEMM_SLAB_B(k0, rb) slab_b_float(b_float, ldb, tb, n0, k0, n, k, rb)
#include "xgemm.h"

// d_y [n][k][p*q] into dy_packed [k][n][p*q] (float): four neighbours of a (image, channel) row a
// work-item, loaded together (one float in flight a work-item held the copy near 1 TB/s).
// Global size (roundup(cdiv(p*q, 4) * k, 256), n).
__kernel void conv2d_col2im_pack(__global const real_t* d_y, __global float* dy_packed, int n, int k, int pq) {
  const int quads = (pq + 3) / 4, t = get_global_id(0), image = get_global_id(1);
  if (t >= quads * k) return;
  const int channel = t / quads, j = (t - channel * quads) * 4;
  __global const real_t* src = d_y + ((long)image * k + channel) * pq;
  __global float* dst = dy_packed + ((long)channel * n + image) * pq;
  float v[4];
  _Pragma("unroll") for (int e = 0; e < 4; ++e) v[e] = j + e < pq ? LD(src, j + e) : 0.0f;
  _Pragma("unroll") for (int e = 0; e < 4; ++e) if (j + e < pq) dst[j + e] = v[e];
}

// Global size (cdiv(n*p*q, NWG) * NDIMC, cdiv(c/g*r*s, MWG) * MDIMC, g).
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_col2im_gemm(__global const real_t* wt, __global const float* dy_packed, __global float* columns, int c, int k, int r, int s,
                        int g, int npq) {
  XGEMM_LOCALS
  const int group = z, kg = k / g, rows = c / g * r * s;
  xgemm_accumulate(rows, npq, kg, wt + (long)group * kg * rows, rows, 1, 0, npq, 0, As, Bs, acc, dy_packed + (long)group * kg * npq);
  __global float* out = columns + (long)group * rows * npq;
  STORE_TILE_FLOAT(out, npq, rows, npq)
}

// d_x as a gather: each element sums the columns of the taps (r, s) whose output position (p, q)
// exists, in tap order. A work-item takes GATHER_X neighbouring groups of sw pixels in a row, pixel f of
// group wq at wi = wq*sw + f: which taps reach pixel f depends on f alone (away from the edges), and
// tap (a, b)'s column for group wq + i is its column for wq, plus i. So for each f the work-item walks
// the taps once and loads GATHER_X neighbours a tap, together: one element a work-item had one load in
// flight and ran at 0.6-1.1 TB/s. The offsets hi + ph - a*dh (and w's) are kept as floor quotient and
// remainder by the stride, stepped a tap at a time: a division a tap took 0.37 ms over ResNet-50's
// 128-channel 56x56 layer at stride 2. Global size (roundup(cdiv(cdiv(w, sw), GATHER_X) * h, 256), c, n).
__kernel void conv2d_col2im(__global const float* columns, __global real_t* d_x, int n, int c, int h, int w, int r, int s, int sh,
                            int sw, int ph, int pw, int dh, int dw, int p, int q) {
  const int runs = ((w + sw - 1) / sw + GATHER_X - 1) / GATHER_X, t = get_global_id(0);
  if (t >= runs * h) return;
  const int ci = get_global_id(1), image = get_global_id(2);
  const int hi = t / runs, wq = (t - hi * runs) * GATHER_X;
  const int pq = p * q, npq = n * pq;
  __global const float* taps = columns + (long)ci * r * s * npq + (long)image * pq;  // [g][c/g*r*s] is [c][r*s]
  __global real_t* out = d_x + (((long)image * c + ci) * h + hi) * w;
  const int dqh = dh / sh, drh = dh - dqh * sh, dqw = dw / sw, drw = dw - dqw * sw;
  const int qh0 = (hi + ph) / sh, rh0 = hi + ph - qh0 * sh;
  int qw0 = wq + pw / sw, rw0 = pw % sw;  // pixel wq*sw + f's offset wq*sw + f + pw, by sw (f = 0 here)
  for (int f = 0; f < sw; ++f) {
    float acc[GATHER_X];
    _Pragma("unroll") for (int i = 0; i < GATHER_X; ++i) acc[i] = 0.0f;
    int qh = qh0, rh = rh0;  // floor quotient and remainder of hi + ph - a*dh by sh
    for (int a = 0; a < r; ++a) {
      if (rh == 0 && qh >= 0 && qh < p) {
        __global const float* row = taps + (long)a * s * npq + qh * q;
        int qw = qw0, rw = rw0;
        for (int b = 0; b < s; ++b) {
          if (rw == 0) {
            __global const float* tap = row + (long)b * npq + qw;
            _Pragma("unroll") for (int i = 0; i < GATHER_X; ++i) if (qw + i >= 0 && qw + i < q) acc[i] += tap[i];
          }
          qw -= dqw, rw -= drw;
          if (rw < 0) rw += sw, --qw;
        }
      }
      qh -= dqh, rh -= drh;
      if (rh < 0) rh += sh, --qh;
    }
    _Pragma("unroll") for (int i = 0; i < GATHER_X; ++i) {
      const int wi = (wq + i) * sw + f;
      if (wi < w) ST(out, wi, acc[i]);
    }
    if (++rw0 == sw) rw0 = 0, ++qw0;
  }
}
