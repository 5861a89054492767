#include "pooling.cl"

// max_pool2d_bwd's `tiles` variants: the window compiled in (PK x PK, stride PS, padding PP, as the
// `blocks` variants; the plan's `when` holds the problem to them). A work-group owns a tile of
// TILE_BR x TILE_BC blocks of PS x PS input cells and works in three stages through local memory:
//  1. it loads the region of every window that can hold a cell of the tile (the tile and a halo of
//     BW_N - 1 windows), as max_key's keys, coalesced and with aligned quads where w % 4 == 0;
//  2. it finds each of those windows' first maximum there (once per window, where `blocks` finds a
//     window again in every work-item it overlaps) and reads the window's d_y;
//  3. it gathers each cell of the tile in window order and stores the cells as quads.
// The same bits as `blocks` and the seed: the same first maximum per window, the same sums in the same
// order. Why: `blocks` reads every cell of x from L1 up to five times (ResNet's 3x3/2 pool) and holds a
// work-item's windows in registers, which left the H200 at 52% of its copy bandwidth (2026-11-28);
// here global memory sees each cell about once (the halo: (2 * TILE_BR + 1) / (2 * TILE_BR) of the rows) and
// each work-item keeps a few loads in flight with no register arrays. Global size
// (tiles down * tiles across * TILE_WG, n * c), local (TILE_WG, 1).
#if defined(PK) && defined(PS) && defined(PP)
#ifndef TILE_BR  // the plan's defaults (pooling.plan), for a build outside a plan
#define TILE_BR 8
#endif
#ifndef TILE_BC
#define TILE_BC 32
#endif
#ifndef TILE_WG
#define TILE_WG 256
#endif
#if TILE_BC * PS % 4 != 0
#error "a tile's row of cells (TILE_BC * PS) must be whole quads"
#endif
#define TW_NR (TILE_BR + BW_N - 1)        // windows down the tile (its own and the halo's)
#define TW_NC (TILE_BC + BW_N - 1)        // windows across
#define TW_ROWS ((TW_NR - 1) * PS + PK)   // the region's rows and columns (BW_OFF: its first less the tile's)
#define TW_COLS ((TW_NC - 1) * PS + PK)
#define T_ROWS (TILE_BR * PS)             // the tile's own cells
#define T_COLS (TILE_BC * PS)
#define TQ_LO BW_FLOOR4(BW_OFF)           // the quads that hold the region's columns, from the tile's first
#define TQ_N (BW_FLOOR4(BW_OFF + TW_COLS - 1) - TQ_LO + 1)
#define T_PITCH (4 * TQ_N)                // a region row in local memory: whole quads, stored as int4
#define T_KOFF (BW_OFF - 4 * TQ_LO)       // region column e's place in its local row: e + T_KOFF
#define T_STEPS(items) (((items) + TILE_WG - 1) / TILE_WG)  // a work-item's share, a count known when compiling (unrolled)

__kernel __attribute__((reqd_work_group_size(TILE_WG, 1, 1)))
void max_pool_backward_tiles(__global const real_t* restrict x, __global const real_t* restrict d_y,
                             __global real_t* restrict d_x, int n, int c, int h, int w, int kh, int kw, int sh, int sw,
                             int ph, int pw) {
  __local int keys[TW_ROWS * T_PITCH];  // the region's cells as max_key orders them (padding: INT_MIN)
  __local int args[TW_NR * TW_NC];      // each window's first maximum, as its index in keys (-1: none)
  __local float grads[TW_NR * TW_NC];   // and its d_y
  const int oh = pool_out(h, PK, PS, PP), ow = pool_out(w, PK, PS, PP), lid = get_local_id(0);
  const int across = ((w + PS - 1) / PS + TILE_BC - 1) / TILE_BC, tile = get_group_id(0);
  const int tr = tile / across, tc = tile - tr * across;
  const int r0 = tr * T_ROWS + BW_OFF, col0 = tc * T_COLS;  // the region's first row; the tile's first column
  const long plane = get_global_id(1);
  __global const real_t* xs = x + plane * h * w;
  const bool quads = w % 4 == 0;  // then a quad from a tile's column is all inside the row or all outside
  // 1. the region
  if (quads) {
#pragma unroll
    for (int s = 0; s < T_STEPS(TW_ROWS * TQ_N); ++s) {
      const int q = lid + s * TILE_WG;
      if (q >= TW_ROWS * TQ_N) break;
      const int a = q / TQ_N, k = q - a * TQ_N, row = r0 + a, col = col0 + 4 * (TQ_LO + k);
      const bool in = row >= 0 && row < h && col >= 0 && col < w;
      const float4 f = in ? LD4(xs + row * w + col) : (float4)(0.0f);
      const int4 key = in ? (int4)(max_key(f.x), max_key(f.y), max_key(f.z), max_key(f.w)) : (int4)(INT_MIN);
      vstore4(key, a * TQ_N + k, keys);
    }
  } else {
#pragma unroll
    for (int s = 0; s < T_STEPS(TW_ROWS * TW_COLS); ++s) {
      const int q = lid + s * TILE_WG;
      if (q >= TW_ROWS * TW_COLS) break;
      const int a = q / TW_COLS, e = q - a * TW_COLS, row = r0 + a, col = col0 + BW_OFF + e;
      const bool in = row >= 0 && row < h && col >= 0 && col < w;
      keys[a * T_PITCH + e + T_KOFF] = in ? max_key(LD(xs, row * w + col)) : INT_MIN;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // 2. each window's first maximum (scanning row by row; the first of equal keys stays) and its d_y
#pragma unroll
  for (int s = 0; s < T_STEPS(TW_NR * TW_NC); ++s) {
    const int q = lid + s * TILE_WG;
    if (q >= TW_NR * TW_NC) break;
    const int wi = q / TW_NC, wj = q - wi * TW_NC;
    const int i = tr * TILE_BR + BW_LO + wi, j = tc * TILE_BC + BW_LO + wj;
    int best = -1, best_key = INT_MIN;
    if (i >= 0 && i < oh && j >= 0 && j < ow) {
#pragma unroll
      for (int a = 0; a < PK; ++a)
#pragma unroll
        for (int b = 0; b < PK; ++b) {
          const int at = (wi * PS + a) * T_PITCH + wj * PS + b + T_KOFF, key = keys[at];
          if (key > best_key) {
            best = at;
            best_key = key;
          }
        }
    }
    args[q] = best;
    grads[q] = best >= 0 ? LD(d_y, (plane * oh + i) * ow + j) : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // 3. each quad of the tile's cells gathers from the windows that hold its cells (block row kr's
  // windows are kr .. kr + BW_N - 1 of the tile's), in window order
#pragma unroll
  for (int s = 0; s < T_STEPS(T_ROWS * (T_COLS / 4)); ++s) {
    const int q = lid + s * TILE_WG;
    if (q >= T_ROWS * (T_COLS / 4)) break;
    const int t = q / (T_COLS / 4), u0 = 4 * (q - t * (T_COLS / 4)), row = tr * T_ROWS + t, kr = t / PS;
    if (row >= h || col0 + u0 >= w) continue;
    float g[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const int u = u0 + k, kc = u / PS, at = (t - BW_OFF) * T_PITCH + u - BW_OFF + T_KOFF;
      g[k] = 0.0f;
#pragma unroll
      for (int wi = kr; wi < kr + BW_N; ++wi)
#pragma unroll
        for (int wj = kc; wj < kc + BW_N; ++wj)
          if (args[wi * TW_NC + wj] == at) g[k] += grads[wi * TW_NC + wj];
    }
    __global real_t* out = d_x + plane * h * w + row * w + col0 + u0;
    if (quads) {
      ST4(out, ((float4)(g[0], g[1], g[2], g[3])));
    } else {
#pragma unroll
      for (int k = 0; k < 4; ++k)
        if (col0 + u0 + k < w) ST(out, k, g[k]);
    }
  }
}
#endif
