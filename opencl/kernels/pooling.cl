#include "workgroup.h"
#include "storage.h"  // tensors in the build's storage format (the argmax scratch stays float)

// Pooling kernels (NCHW). ABI (docs/kernel-abi.md): inputs, outputs, then every attribute:
// n, c, h, w, kh, kw, sh, sw, ph, pw (and cip for avg_pool2d). Window (i, j) of a plane covers rows
// i*sh - ph .. + kh - 1 and columns j*sw - pw .. + kw - 1; cells outside the input are padding.

int pool_out(int in, int k, int s, int p) { return (in + 2 * p - k) / s + 1; }

// Index within the plane of the first maximum of window (i, j), scanning row by row; NaN counts as
// the largest value (it propagates). Padding never wins.
int window_argmax(__global const real_t* plane, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int i, int j) {
  int best = -1;
  float best_v = 0.0f;
  for (int a = 0; a < kh; ++a) {
    const int r = i * sh - ph + a;
    if (r < 0 || r >= h) continue;
    for (int b = 0; b < kw; ++b) {
      const int c = j * sw - pw + b;
      if (c < 0 || c >= w) continue;
      const float v = LD(plane, r * w + c);
      if (best < 0 || (!isnan(best_v) && (v > best_v || isnan(v)))) {
        best = r * w + c;
        best_v = v;
      }
    }
  }
  return best;
}

// Number of input cells in window (i, j), or kh * kw with count_include_pad.
int window_count(int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int cip, int i, int j) {
  if (cip) return kh * kw;
  const int r0 = max(i * sh - ph, 0), r1 = min(i * sh - ph + kh, h);
  const int c0 = max(j * sw - pw, 0), c1 = min(j * sw - pw + kw, w);
  return (r1 - r0) * (c1 - c0);
}

// One work-item per output element.
__kernel void max_pool_forward(__global const real_t* x, __global real_t* y, int n, int c, int h, int w, int kh, int kw,
                               int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long o = get_global_id(0);
  if (o >= (long)n * c * oh * ow) return;
  const long plane = o / (oh * ow);
  const int i = (o / ow) % oh, j = o % ow;
  __global const real_t* xp = x + plane * h * w;
  ST(y, o, LD(xp, window_argmax(xp, h, w, kh, kw, sh, sw, ph, pw, i, j)));
}

// The windows of one axis that hold input position r: i from ceil((r + p - k + 1) / s) to
// floor((r + p) / s), clipped to [0, out).
int first_window(int r, int k, int s, int p) {
  const int num = r + p - k + 1;
  return num <= 0 ? 0 : (num + s - 1) / s;
}
int last_window(int r, int s, int p, int out) { return min((r + p) / s, out - 1); }

// One work-item per input element: gathers d_y from every window whose first maximum it is, in window
// order (no atomics, deterministic).
__kernel void max_pool_backward(__global const real_t* x, __global const real_t* d_y, __global real_t* d_x, int n, int c,
                                int h, int w, int kh, int kw, int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long e = get_global_id(0);
  if (e >= (long)n * c * h * w) return;
  const long plane = e / (h * w);
  const int r = (e / w) % h, col = e % w, cell = r * w + col;
  __global const real_t* xp = x + plane * h * w;
  float g = 0.0f;
  for (int i = first_window(r, kh, sh, ph); i <= last_window(r, sh, ph, oh); ++i)
    for (int j = first_window(col, kw, sw, pw); j <= last_window(col, sw, pw, ow); ++j)
      if (window_argmax(xp, h, w, kh, kw, sh, sw, ph, pw, i, j) == cell) g += LD(d_y, (plane * oh + i) * ow + j);
  ST(d_x, e, g);
}

// The mean of window (i, j) of plane xp: each term scaled by 1/count before summing, so that a finite
// average never overflows.
float window_mean(__global const real_t* xp, int h, int w, int kh, int kw, int sh, int sw, int ph, int pw, int cip, int i, int j) {
  const float scale = 1.0f / (float)window_count(h, w, kh, kw, sh, sw, ph, pw, cip, i, j);
  float s = 0.0f;
  for (int a = 0; a < kh; ++a) {
    const int r = i * sh - ph + a;
    if (r < 0 || r >= h) continue;
    for (int b = 0; b < kw; ++b) {
      const int col = j * sw - pw + b;
      if (col >= 0 && col < w) s += LD(xp, r * w + col) * scale;
    }
  }
  return s;
}

__kernel void avg_pool_forward(__global const real_t* x, __global real_t* y, int n, int c, int h, int w, int kh, int kw,
                               int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long o = get_global_id(0);
  if (o >= (long)n * c * oh * ow) return;
  const long plane = o / (oh * ow);
  const int i = (o / ow) % oh, j = o % ow;
  ST(y, o, window_mean(x + plane * h * w, h, w, kh, kw, sh, sw, ph, pw, cip, i, j));
}

// d_x at cell (r, col) of a plane whose d_y is `grads`: the share of every window that holds it, in
// window order.
float window_shares(__global const real_t* grads, int h, int w, int oh, int ow, int kh, int kw, int sh, int sw, int ph, int pw,
                    int cip, int r, int col) {
  float g = 0.0f;
  for (int i = first_window(r, kh, sh, ph); i <= last_window(r, sh, ph, oh); ++i)
    for (int j = first_window(col, kw, sw, pw); j <= last_window(col, sw, pw, ow); ++j)
      g += LD(grads, i * ow + j) / (float)window_count(h, w, kh, kw, sh, sw, ph, pw, cip, i, j);
  return g;
}

// One work-item per input element.
__kernel void avg_pool_backward(__global const real_t* d_y, __global real_t* d_x, int n, int c, int h, int w, int kh,
                                int kw, int sh, int sw, int ph, int pw, int cip) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long e = get_global_id(0);
  if (e >= (long)n * c * h * w) return;
  const long plane = e / (h * w);
  const int r = (e / w) % h, col = e % w;
  ST(d_x, e, window_shares(d_y + plane * oh * ow, h, w, oh, ow, kh, kw, sh, sw, ph, pw, cip, r, col));
}

// One 64-wide work-group per (n, c) plane; sums x / (h*w) so that a finite mean never overflows.
#ifndef GAP_WG  // the plan (pooling.plan) defines it; this default serves files that include this one
#define GAP_WG 64
#endif
__kernel __attribute__((reqd_work_group_size(GAP_WG, 1, 1)))
void global_avg_pool_forward(__global const real_t* x, __global real_t* y, int n, int c, int h, int w) {
  __local float part[GAP_WG];
  const int lid = get_local_id(0);
  const long plane = get_group_id(0);
  const int hw = h * w;
  const float scale = 1.0f / (float)hw;
  float s = 0.0f;
  for (int k = lid; k < hw; k += GAP_WG) s += LD(x, plane * hw + k) * scale;
  const float total = workgroup_sum(s, part);
  if (lid == 0) ST(y, plane, total);
}

__kernel void global_avg_pool_backward(__global const real_t* d_y, __global real_t* d_x, int n, int c, int h, int w) {
  const long e = get_global_id(0);
  if (e < (long)n * c * h * w) ST(d_x, e, LD(d_y, e / (h * w)) / (float)(h * w));
}

// global_avg_pool's `planes` variant, for small planes (h * w <= 64, ResNet's 7x7 head): a work-group of
// GAP_PLANES work-items stages GAP_PLANES consecutive planes through local memory with coalesced reads,
// then each work-item sums its own plane in order.
#ifndef GAP_PLANES
#define GAP_PLANES 128
#endif
__kernel __attribute__((reqd_work_group_size(GAP_PLANES, 1, 1)))
void global_avg_pool_planes(__global const real_t* x, __global real_t* y, int n, int c, int h, int w) {
  __local float tile[GAP_PLANES * 64];
  const int lid = get_local_id(0), hw = h * w;
  const long first = (long)get_group_id(0) * GAP_PLANES, planes = (long)n * c;
  const int count = (int)min((long)GAP_PLANES, planes - first);
  const float scale = 1.0f / (float)hw;
  for (int k = lid; k < count * hw; k += GAP_PLANES) tile[k] = LD(x, first * hw + k) * scale;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < count) {
    float s = 0.0f;
    for (int j = 0; j < hw; ++j) s += tile[lid * hw + j];
    ST(y, first + lid, s);
  }
}

// max_pool2d_bwd's `argmax` variant: each window's first maximum found once (its index within the
// plane, stored as an int's bits in the float scratch), then one work-item per input element gathers
// d_y from the windows whose maximum it is, in window order (no atomics, deterministic). The seed finds
// every covering window's maximum again for every input element.
__kernel void max_pool_argmax(__global const real_t* x, __global float* arg, int n, int c, int h, int w, int kh, int kw, int sh,
                              int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long o = get_global_id(0);
  if (o >= (long)n * c * oh * ow) return;
  const long plane = o / (oh * ow);
  const int i = (o / ow) % oh, j = o % ow;
  arg[o] = as_float(window_argmax(x + plane * h * w, h, w, kh, kw, sh, sw, ph, pw, i, j));
}

__kernel void max_pool_gather(__global const float* arg, __global const real_t* d_y, __global real_t* d_x, int n, int c, int h,
                              int w, int kh, int kw, int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw);
  const long e = get_global_id(0);
  if (e >= (long)n * c * h * w) return;
  const long plane = e / (h * w);
  const int r = (e / w) % h, col = e % w, cell = r * w + col;
  float g = 0.0f;
  for (int i = first_window(r, kh, sh, ph); i <= last_window(r, sh, ph, oh); ++i)
    for (int j = first_window(col, kw, sw, pw); j <= last_window(col, sw, pw, ow); ++j) {
      const long o = (plane * oh + i) * ow + j;
      if (as_int(arg[o]) == cell) g += LD(d_y, o);
    }
  ST(d_x, e, g);
}

// The `planes` variant of max_pool2d_bwd: the same two steps with a plane per global row (axis 1), so
// that a work-item finds its cell with one 32-bit division instead of three 64-bit ones (64-bit
// division is a long software routine on GPUs: it, not memory, bounded the steps above). Global size
// (roundup(cells of a plane, 256), n * c); axis 1 allows 65535 planes on NVIDIA (the plan's `when`).
__kernel void max_pool_argmax_planes(__global const real_t* x, __global float* arg, int n, int c, int h, int w, int kh, int kw,
                                     int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw), cell = get_global_id(0);
  if (cell >= oh * ow) return;
  const long plane = get_global_id(1);
  const int i = cell / ow, j = cell - i * ow;
  arg[plane * oh * ow + cell] = as_float(window_argmax(x + plane * h * w, h, w, kh, kw, sh, sw, ph, pw, i, j));
}
__kernel void max_pool_gather_planes(__global const float* arg, __global const real_t* d_y, __global real_t* d_x, int n, int c,
                                     int h, int w, int kh, int kw, int sh, int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw), cell = get_global_id(0);
  if (cell >= h * w) return;
  const long plane = get_global_id(1);
  const int r = cell / w, col = cell - r * w;
  __global const float* args = arg + plane * oh * ow;
  __global const real_t* grads = d_y + plane * oh * ow;
  float g = 0.0f;
  for (int i = first_window(r, kh, sh, ph); i <= last_window(r, sh, ph, oh); ++i)
    for (int j = first_window(col, kw, sw, pw); j <= last_window(col, sw, pw, ow); ++j)
      if (as_int(args[i * ow + j]) == cell) g += LD(grads, i * ow + j);
  ST(d_x, plane * h * w + cell, g);
}

// The `plane` variant of max_pool2d_bwd: one work-group per plane, one launch. The plane's window
// maxima (argmax) and its d_y go to local memory first, then each input cell of the plane gathers in
// window order, as `planes` does (the same bits), without the argmax round trip through global
// scratch and the second launch. The windows that hold each row and each column (first | last << 16)
// are worked out once a plane into local memory, and each work-item steps its row and column from
// cell to cell: no integer division a cell (by a stride or a width known only at run time, tens of
// instructions each). The plan's `when` keeps the three local arrays within 32 KB.
#ifndef POOL_WG
#define POOL_WG 256
#endif
// Steps (r, col) by POOL_WG cells along rows of w: dr whole rows and dc columns, carrying a row.
#define STEP_CELL(r, col, dr, dc, w) \
  do {                               \
    (col) += (dc);                   \
    (r) += (dr);                     \
    if ((col) >= (w)) {              \
      (col) -= (w);                  \
      ++(r);                         \
    }                                \
  } while (0)
__kernel __attribute__((reqd_work_group_size(POOL_WG, 1, 1)))
void max_pool_backward_plane(__global const real_t* x, __global const real_t* d_y, __global real_t* d_x, __local int* args,
                             __local float* grads, __local int* spans, int n, int c, int h, int w, int kh, int kw, int sh,
                             int sw, int ph, int pw) {
  const int oh = pool_out(h, kh, sh, ph), ow = pool_out(w, kw, sw, pw), lid = get_local_id(0);
  const long plane = get_group_id(0);
  __global const real_t* xs = x + plane * h * w;
  // spans[0 .. h): the windows of each row; spans[h .. h + w): of each column
  for (int t = lid; t < h + w; t += POOL_WG) {
    const int first = t < h ? first_window(t, kh, sh, ph) : first_window(t - h, kw, sw, pw);
    const int last = t < h ? last_window(t, sh, ph, oh) : last_window(t - h, sw, pw, ow);
    spans[t] = first | (last << 16);
  }
  {
    int i = lid / ow, j = lid - i * ow;
    const int di = POOL_WG / ow, dj = POOL_WG - di * ow;
    for (int cell = lid; cell < oh * ow; cell += POOL_WG) {
      args[cell] = window_argmax(xs, h, w, kh, kw, sh, sw, ph, pw, i, j);
      grads[cell] = LD(d_y, plane * oh * ow + cell);
      STEP_CELL(i, j, di, dj, ow);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int r = lid / w, col = lid - r * w;
  const int dr = POOL_WG / w, dc = POOL_WG - dr * w;
  for (int cell = lid; cell < h * w; cell += POOL_WG) {
    const int rows = spans[r], cols = spans[h + col];
    float g = 0.0f;
    for (int i = rows & 0xffff; i <= rows >> 16; ++i)
      for (int j = cols & 0xffff; j <= cols >> 16; ++j)
        if (args[i * ow + j] == cell) g += grads[i * ow + j];
    ST(d_x, plane * h * w + cell, g);
    STEP_CELL(r, col, dr, dc, w);
  }
}

// max_pool2d_bwd's `blocks` variants: the window compiled in (PK x PK, stride PS, padding PP on both
// axes; the plan's `when` holds the problem to them). Input cells are cut into PS x PS blocks, and a
// work-item owns POOL_BI x POOL_BJ of them (block rows x block columns). It reads into registers the
// cells of every window that can hold one of its cells (for ResNet's 3x3/2 pool and one block: 2 x 2
// windows over 5 x 5 cells), with aligned quads where a row of its cells is a multiple of 4 wide,
// finds each window's first maximum there, and gathers its own cells in window order: the same bits
// as `plane`, with no local memory, no barrier and no loop bound known only at run time. A window's
// maximum is found again by every work-item it overlaps; its cells come from L1, so global memory
// still sees x once. Global size (roundup(cdiv(block rows, POOL_BI) * cdiv(block columns, POOL_BJ),
// POOL_BX), n * c). On the H100 (docs/performance.md) it runs at 70.5-71.6% of the copy bandwidth, where
// `plane` ran at 44%.
#if defined(PK) && defined(PS) && defined(PP)
// window_argmax's order as one integer comparison: the first cell of a window with the largest key is
// its first maximum. Floats map in their order with -0 and +0 alike (equal, as > sees them), NaN
// above every number (it wins and stays), and padding is INT_MIN, below every cell.
int max_key(float v) {
  const int u = as_int(v);
  return isnan(v) ? INT_MAX : u >= 0 ? u : (u ^ 0x7fffffff) + 1;
}
#ifndef POOL_BX  // the plan's defaults (pooling.plan), for a build outside a plan
#define POOL_BX 64
#endif
#ifndef POOL_BJ
#define POOL_BJ 2
#endif
#ifndef POOL_BI
#define POOL_BI 2
#endif
// The windows that can hold block row bi's rows (bi*PS .. bi*PS + PS - 1): bi + BW_LO .. bi + BW_HI
// (first_window and last_window above at the block's first and last row; C's division truncates,
// which is the ceiling for a negative numerator). The same along a row, block by block.
#define BW_LO ((PP - PK + 1) <= 0 ? (PP - PK + 1) / PS : (PP - PK + PS) / PS)
#define BW_HI ((PS - 1 + PP) / PS)
#define BW_N (BW_HI - BW_LO + 1)           // windows per axis over one block
#define BW_NR (BW_N + POOL_BI - 1)         // windows down a column over the work-item's blocks
#define BW_ROWS ((BW_NR - 1) * PS + PK)    // the rows they cover
#define BW_NC (BW_N + POOL_BJ - 1)         // windows along a row over the work-item's blocks
#define BW_COLS ((BW_NC - 1) * PS + PK)    // the columns they cover
#define BW_OFF (BW_LO * PS - PP)           // the region's first column less the first block's
#define BW_FLOOR4(a) ((a) >= 0 ? (a) / 4 : -((3 - (a)) / 4))
#define BW_QLO BW_FLOOR4(BW_OFF)           // the quads that hold the region, from the work-item's own
#define BW_QHI BW_FLOOR4(BW_OFF + BW_COLS - 1)
// One work-item's work: its blocks from block row bi and column bj of plane `plane`. `inner` is a
// constant at each call: true where the region, every quad loaded and every window lie inside the
// plane, which drops every padding and edge test. With POOL_INNER=1 the kernel takes that path for
// most work-items and the general one (false) at the plane's edges: twice the code. On PoCL that is
// 2.3x faster; on the H100 it was 1.8x slower at every shape (cause not pinned down; the code is twice
// as long), so the plan's default is 0: one general path.
#ifndef POOL_INNER
#define POOL_INNER 0
#endif
inline __attribute__((always_inline)) void blocks_work(__global const real_t* restrict x, __global const real_t* restrict d_y,
                        __global real_t* restrict d_x, long plane, int h, int w, int oh, int ow, int bi, int bj,
                        bool quads, bool inner) {
  __global const real_t* xs = x + plane * h * w;
  // the region: rows r0 .. r0 + BW_ROWS - 1, columns c0 .. c0 + BW_COLS - 1; outside the input is padding
  const int r0 = bi * PS + BW_OFF, c0 = bj * PS + BW_OFF;
  bool row_in[BW_ROWS], col_in[BW_COLS];
#pragma unroll
  for (int a = 0; a < BW_ROWS; ++a) row_in[a] = inner || (r0 + a >= 0 && r0 + a < h);
#pragma unroll
  for (int e = 0; e < BW_COLS; ++e) col_in[e] = inner || (c0 + e >= 0 && c0 + e < w);
  // the region's cells as max_key orders them (padding: INT_MIN)
  int key[BW_ROWS][BW_COLS];
  if (quads) {
#if PS * POOL_BJ % 4 == 0
#pragma unroll
    for (int a = 0; a < BW_ROWS; ++a)
#pragma unroll
      for (int q = BW_QLO; q <= BW_QHI; ++q) {
        const int col = bj * PS + 4 * q;
        const bool in = inner || (row_in[a] && col >= 0 && col < w);
        const float4 f = in ? LD4(xs + (r0 + a) * w + col) : (float4)(0.0f);
        const float fs[4] = {f.x, f.y, f.z, f.w};
#pragma unroll
        for (int k = 0; k < 4; ++k)
          if (4 * q + k - BW_OFF >= 0 && 4 * q + k - BW_OFF < BW_COLS) key[a][4 * q + k - BW_OFF] = in ? max_key(fs[k]) : INT_MIN;
      }
#endif
  } else {
#pragma unroll
    for (int a = 0; a < BW_ROWS; ++a)
#pragma unroll
      for (int e = 0; e < BW_COLS; ++e) key[a][e] = row_in[a] && col_in[e] ? max_key(LD(xs, (r0 + a) * w + c0 + e)) : INT_MIN;
  }
  // each window's first maximum (region index a * BW_COLS + e; -1 for a window past the output or of
  // padding alone) and its d_y
  int arg[BW_NR][BW_NC];
  float grad[BW_NR][BW_NC];
#pragma unroll
  for (int wi = 0; wi < BW_NR; ++wi)
#pragma unroll
    for (int wj = 0; wj < BW_NC; ++wj) {
      const int i = bi + BW_LO + wi, j = bj + BW_LO + wj;
      int best = -1, best_key = INT_MIN;
      if (inner || (i >= 0 && i < oh && j >= 0 && j < ow)) {
#pragma unroll
        for (int a = wi * PS; a < wi * PS + PK; ++a)
#pragma unroll
          for (int e = wj * PS; e < wj * PS + PK; ++e)
            if (key[a][e] > best_key) {
              best = a * BW_COLS + e;
              best_key = key[a][e];
            }
      }
      arg[wi][wj] = best;
      grad[wi][wj] = best >= 0 ? LD(d_y, (plane * oh + i) * ow + j) : 0.0f;
    }
  // each cell of block (kr, k) gathers in window order from the windows that hold it (region row
  // t - BW_OFF and column u - BW_OFF within the window's PK x PK: known at compile time, so only
  // those comparisons are made)
#pragma unroll
  for (int t = 0; t < PS * POOL_BI; ++t) {
    const int row = bi * PS + t, kr = t / PS;
    if (!inner && row >= h) break;
    float g[PS * POOL_BJ];
#pragma unroll
    for (int u = 0; u < PS * POOL_BJ; ++u) {
      const int k = u / PS, a = t - BW_OFF, e = u - BW_OFF;
      g[u] = 0.0f;
#pragma unroll
      for (int wi = kr; wi < kr + BW_N; ++wi)
#pragma unroll
        for (int wj = k; wj < k + BW_N; ++wj)
          if (a >= wi * PS && a < wi * PS + PK && e >= wj * PS && e < wj * PS + PK && arg[wi][wj] == a * BW_COLS + e)
            g[u] += grad[wi][wj];
    }
    __global real_t* out = d_x + plane * h * w + row * w + bj * PS;
    if (quads) {
#if PS * POOL_BJ % 4 == 0
#pragma unroll
      for (int q = 0; q < PS * POOL_BJ; q += 4)  // (w % 4 == 0: a quad is all in or all out)
        if (inner || bj * PS + q < w) ST4(out + q, ((float4)(g[q], g[q + 1], g[q + 2], g[q + 3])));
#endif
    } else {
#pragma unroll
      for (int u = 0; u < PS * POOL_BJ; ++u)
        if (inner || bj * PS + u < w) ST(out, u, g[u]);
    }
  }
}
__kernel __attribute__((reqd_work_group_size(POOL_BX, 1, 1)))
void max_pool_backward_blocks(__global const real_t* restrict x, __global const real_t* restrict d_y,
                              __global real_t* restrict d_x, int n, int c, int h, int w, int kh, int kw, int sh, int sw,
                              int ph, int pw) {
  // Every loop has bounds known at compile time and is unrolled: the arrays stay in registers (an
  // array indexed in a loop that is not unrolled goes to memory).
  const int oh = pool_out(h, PK, PS, PP), ow = pool_out(w, PK, PS, PP);
  const int groups = ((w + PS - 1) / PS + POOL_BJ - 1) / POOL_BJ, b = get_global_id(0);
  if (b >= ((h + PS - 1) / PS + POOL_BI - 1) / POOL_BI * groups) return;
  const int gi = b / groups, bi = gi * POOL_BI, bj = (b - gi * groups) * POOL_BJ;  // the first block's row and column
#if PS * POOL_BJ % 4 == 0
  // a work-item's cells in a row are PS * POOL_BJ columns from bj * PS, a multiple of 4: where w % 4 == 0,
  // its loads and stores are aligned quads (the quads BW_QLO .. BW_QHI from its first hold the region)
  const bool quads = w % 4 == 0;
#else
  const bool quads = false;
#endif
  // inside: the region's rows, the columns loaded (quads: whole quads), the windows and the work-item's
  // own cells
  const int r0 = bi * PS + BW_OFF, first_col = quads ? bj * PS + 4 * BW_QLO : bj * PS + BW_OFF;
  const int last_col = quads ? bj * PS + 4 * BW_QHI + 3 : bj * PS + BW_OFF + BW_COLS - 1;
  const int i0 = bi + BW_LO, j0 = bj + BW_LO;
  const bool inner = r0 >= 0 && r0 + BW_ROWS <= h && first_col >= 0 && last_col < w && i0 >= 0 && i0 + BW_NR <= oh &&
                     j0 >= 0 && j0 + BW_NC <= ow && (bi + POOL_BI) * PS <= h && (bj + POOL_BJ) * PS <= w;
  const long plane = get_global_id(1);
#if POOL_INNER
  if (inner)
    blocks_work(x, d_y, d_x, plane, h, w, oh, ow, bi, bj, quads, true);
  else
#endif
    blocks_work(x, d_y, d_x, plane, h, w, oh, ow, bi, bj, quads, false);
}
#endif
