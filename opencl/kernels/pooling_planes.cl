#include "pooling.cl"

// The `planes` variants of the pooling forwards and of avg_pool2d_bwd: the seeds' kernels (the same
// arithmetic in the same order, so the same bits) on a 2-D range, a plane per global row (axis 1) and
// the cells of a plane along axis 0. A work-item finds its cell with one 32-bit division instead of
// the seeds' three 64-bit ones: 64-bit division is a long software routine on GPUs, and it, not memory,
// bounded the seeds (avg_pool2d_bwd at 10% of the H200's copy bandwidth over ResNet's 32x256x56x56,
// 2026-11-28). Global size (roundup(cells of a plane, 256), n * c); axis 1 allows 65535 planes on
// NVIDIA (the plans' `when`), as max_pool2d_bwd's `planes` (pooling.cl).
//
// A variant may compile its window in: WIN_K, WIN_S, WIN_P (a square window, its stride and padding on
// both axes; the plan's `when` holds the problem to them). The window's bounds for a cell are then
// divisions by a constant (a multiply and a shift) rather than the run-time division routine: on the
// H200 that routine, not memory, still bounded avg_pool2d_bwd's `planes` over 2x2 windows (0.253 ms
// against the seed's 0.308, 12% of the copy).
#if defined(WIN_K) && defined(WIN_S) && defined(WIN_P)
#define KH_ WIN_K
#define KW_ WIN_K
#define SH_ WIN_S
#define SW_ WIN_S
#define PH_ WIN_P
#define PW_ WIN_P
#else
#define KH_ kh
#define KW_ kw
#define SH_ sh
#define SW_ sw
#define PH_ ph
#define PW_ pw
#endif

__kernel void max_pool_forward_planes(__global const real_t* x, __global real_t* y, int n, int c, int h, int w, int kh, int kw,
                                      int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, KH_, SH_, PH_), ow = pool_out(w, KW_, SW_, PW_), cell = get_global_id(0);
  if (cell >= oh * ow) return;
  const long plane = get_global_id(1);
  const int i = cell / ow, j = cell - i * ow;
  __global const real_t* xp = x + plane * h * w;
  ST(y, plane * oh * ow + cell, LD(xp, window_argmax(xp, h, w, KH_, KW_, SH_, SW_, PH_, PW_, i, j)));
}

__kernel void avg_pool_forward_planes(__global const real_t* x, __global real_t* y, int n, int c, int h, int w, int kh, int kw,
                                      int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, KH_, SH_, PH_), ow = pool_out(w, KW_, SW_, PW_), cell = get_global_id(0);
  if (cell >= oh * ow) return;
  const long plane = get_global_id(1);
  const int i = cell / ow, j = cell - i * ow;
  ST(y, plane * oh * ow + cell, window_mean(x + plane * h * w, h, w, KH_, KW_, SH_, SW_, PH_, PW_, cip, i, j));
}

__kernel void avg_pool_backward_planes(__global const real_t* d_y, __global real_t* d_x, int n, int c, int h, int w, int kh,
                                       int kw, int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, KH_, SH_, PH_), ow = pool_out(w, KW_, SW_, PW_), cell = get_global_id(0);
  if (cell >= h * w) return;
  const long plane = get_global_id(1);
  const int r = cell / w, col = cell - r * w;
  ST(d_x, plane * h * w + cell, window_shares(d_y + plane * oh * ow, h, w, oh, ow, KH_, KW_, SH_, SW_, PH_, PW_, cip, r, col));
}
