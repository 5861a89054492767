// conv2d backward data for few channels per group (a network's stem: c = 3) as a GEMM and a gather.
// The phase-split implicit GEMM (conv_igemm_data.cl) has M = c/g rows there, 3 of a tile's 32; here
// the taps join the channels as rows instead:
//   Z[image, group][(c', r, s), (p, q)] = W[k', (c', r, s)]^T @ d_y[image, group's k', (p, q)]
// a plain GEMM (M = c/g*r*s, N = p*q, K = k/g) into the float scratch `columns`; then each d_x element
// sums the Z entries of the taps that reach it, in tap order (col2im as a gather: no atomics, the
// same bits every run). Every term is a product the convolution has (no padded taps in the GEMM, so
// no 0 * Inf), and the sum is the full convolution's.
#include "xgemm.h"

// Global size (cdiv(p*q, NWG) * NDIMC, cdiv(c/g*r*s, MWG) * MDIMC, n * g).
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void conv2d_col2im_gemm(__global const real_t* wt, __global const real_t* d_y, __global float* columns, int c, int k, int r, int s, int g,
                        int pq) {
  XGEMM_LOCALS
  const int image = z / g, group = z % g, kg = k / g, rows = c / g * r * s;
  xgemm_accumulate(rows, pq, kg, wt + (long)group * kg * rows, rows, 1, d_y + ((long)image * k + group * kg) * pq, pq, 0, As, Bs, acc);
  __global float* out = columns + z * rows * pq;
  STORE_TILE_FLOAT(out, pq, rows, pq)
}

// d_x, one work-item per element: the sum over the taps (r, s) whose output position (p, q) exists.
__kernel void conv2d_col2im(__global const float* columns, __global real_t* d_x, int n, int c, int h, int w, int k, int r, int s, int sh,
                            int sw, int ph, int pw, int dh, int dw, int g, int p, int q) {
  const long o = get_global_id(0);
  if (o >= (long)n * c * h * w) return;
  const int wi = o % w, hi = (o / w) % h, ci = (o / ((long)h * w)) % c, image = o / ((long)c * h * w);
  const int cg = c / g, group = ci / cg, rows = cg * r * s, pq = p * q;
  __global const float* taps = columns + ((long)(image * g + group) * rows + (long)(ci % cg) * r * s) * pq;
  float acc = 0.0f;
  for (int a = 0; a < r; ++a) {
    const int hoff = hi + ph - a * dh;
    if (hoff < 0 || hoff % sh != 0 || hoff / sh >= p) continue;
    for (int b = 0; b < s; ++b) {
      const int woff = wi + pw - b * dw;
      if (woff < 0 || woff % sw != 0 || woff / sw >= q) continue;
      acc += taps[(long)(a * s + b) * pq + (hoff / sh) * q + woff / sw];
    }
  }
  ST(d_x, o, acc);
}
