#include "pooling.cl"

// max_pool2d_bwd's `tiles` variant: the window compiled in (PK x PK, stride PS, padding PP, as the
// `blocks` variants; the plan's `when` holds the problem to them). For windows that overlap (ResNet's
// 3x3/2: `tiles_3x3s2`); where they do not (2x2/2), `blocks` already runs at the copy's speed on the
// H200 and this form was no faster (2026-11-29). A work-group owns a tile of
// TILE_BR x TILE_BC blocks of PS x PS input cells and works in three stages through local memory:
//  1. it loads the region of every window that can hold a cell of the tile (the tile and a halo of
//     BW_N - 1 windows), as max_key's keys, coalesced and with aligned quads where w % 4 == 0;
//  2. it finds each of those windows' first maximum there (once per window, where `blocks` finds a
//     window again in every work-item it overlaps) and reads the window's d_y;
//  3. it gathers each cell of the tile in window order, a work-item a few blocks side by side with
//     their windows in registers, and stores the cells as quads.
// The same bits as `blocks` and the seed: the same first maximum per window, the same sums in the same
// order. Why: `blocks` reads every cell of x from L1 up to five times (ResNet's 3x3/2 pool) and holds all
// of a work-item's windows in registers (69 of them), which left the H200 at 52% of its copy bandwidth;
// here global memory sees each cell about once (the halo: (2 * TILE_BR + 1) / (2 * TILE_BR) of the
// rows) and each work-item issues all its loads at once: 72% of the copy (2026-11-29). Global size
// (tiles down * tiles across * TILE_WG, n * c), local (TILE_WG, 1).
#if defined(PK) && defined(PS) && defined(PP)
#ifndef TILE_BR  // the plan's defaults (pooling.plan), for a build outside a plan
#define TILE_BR 16
#endif
#ifndef TILE_BC
#define TILE_BC 32
#endif
#ifndef TILE_WG
#define TILE_WG 128
#endif
#if TILE_BC % (PS % 4 == 0 ? 1 : PS % 2 == 0 ? 2 : 4) != 0
#error "a tile's row of blocks (TILE_BC) must be whole groups of T_J blocks, whole quads of cells"
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
#define T_J (PS % 4 == 0 ? 1 : PS % 2 == 0 ? 2 : 4)  // blocks side by side a work-item gathers: whole quads
#define TG_NC (T_J + BW_N - 1)            // the windows across them
#define T_STEPS(items) (((items) + TILE_WG - 1) / TILE_WG)  // a work-item's share, a count known when compiling (unrolled)

__kernel __attribute__((reqd_work_group_size(TILE_WG, 1, 1)))
void max_pool_backward_tiles(__global const real_t* restrict x, __global const real_t* restrict d_y,
                             __global real_t* restrict d_x, int n, int c, int h, int w, int kh, int kw, int sh, int sw,
                             int ph, int pw) {
  __local int keys[TW_ROWS * T_PITCH];  // the region's cells as max_key orders them (padding: INT_MIN)
  __local int2 wins[TW_NR * TW_NC];     // each window's first maximum (its index in keys; -1: none) and d_y's bits
  const int oh = pool_out(h, PK, PS, PP), ow = pool_out(w, PK, PS, PP), lid = get_local_id(0);
  const int across = ((w + PS - 1) / PS + TILE_BC - 1) / TILE_BC, tile = get_group_id(0);
  const int tr = tile / across, tc = tile - tr * across;
  const int r0 = tr * T_ROWS + BW_OFF, col0 = tc * T_COLS;  // the region's first row; the tile's first column
  const long plane = get_global_id(1);
  __global const real_t* xs = x + plane * h * w;
  const bool quads = w % 4 == 0;  // then a quad from a tile's column is all inside the row or all outside
  // Every global load of stages 1 and 2 is issued before the first is used: each from an address that
  // is always valid (the plane's first cell where the cell is outside), so that the compiler puts no
  // branch between them and their latencies overlap (loads behind branches, each waited for before the
  // next, held the first version of this kernel to 0.114 ms on the H200).
  // d_y of the windows this work-item will finish in stage 2
  float dys[T_STEPS(TW_NR * TW_NC)];
#pragma unroll
  for (int s = 0; s < T_STEPS(TW_NR * TW_NC); ++s) {
    const int q = lid + s * TILE_WG, wi = q / TW_NC, wj = q - wi * TW_NC;
    const int i = tr * TILE_BR + BW_LO + wi, j = tc * TILE_BC + BW_LO + wj;
    const bool in = q < TW_NR * TW_NC && i >= 0 && i < oh && j >= 0 && j < ow;
    dys[s] = LD(d_y, plane * oh * ow + (in ? i * ow + j : 0));
  }
  // 1. the region, as keys in local memory
  if (quads) {
    float4 f[T_STEPS(TW_ROWS * TQ_N)];
#pragma unroll
    for (int s = 0; s < T_STEPS(TW_ROWS * TQ_N); ++s) {
      const int q = lid + s * TILE_WG, a = q / TQ_N, k = q - a * TQ_N, row = r0 + a, col = col0 + 4 * (TQ_LO + k);
      const bool in = q < TW_ROWS * TQ_N && row >= 0 && row < h && col >= 0 && col < w;
      f[s] = LD4(xs + (in ? row * w + col : 0));
    }
#pragma unroll
    for (int s = 0; s < T_STEPS(TW_ROWS * TQ_N); ++s) {
      const int q = lid + s * TILE_WG, a = q / TQ_N, k = q - a * TQ_N, row = r0 + a, col = col0 + 4 * (TQ_LO + k);
      const bool in = row >= 0 && row < h && col >= 0 && col < w;
      const int4 key = in ? (int4)(max_key(f[s].x), max_key(f[s].y), max_key(f[s].z), max_key(f[s].w)) : (int4)(INT_MIN);
      if (q < TW_ROWS * TQ_N) vstore4(key, q, keys);  // (a * TQ_N + k == q)
    }
  } else {
    float v[T_STEPS(TW_ROWS * TW_COLS)];
#pragma unroll
    for (int s = 0; s < T_STEPS(TW_ROWS * TW_COLS); ++s) {
      const int q = lid + s * TILE_WG, a = q / TW_COLS, e = q - a * TW_COLS, row = r0 + a, col = col0 + BW_OFF + e;
      const bool in = q < TW_ROWS * TW_COLS && row >= 0 && row < h && col >= 0 && col < w;
      v[s] = LD(xs, in ? row * w + col : 0);
    }
#pragma unroll
    for (int s = 0; s < T_STEPS(TW_ROWS * TW_COLS); ++s) {
      const int q = lid + s * TILE_WG, a = q / TW_COLS, e = q - a * TW_COLS, row = r0 + a, col = col0 + BW_OFF + e;
      const bool in = row >= 0 && row < h && col >= 0 && col < w;
      if (q < TW_ROWS * TW_COLS) keys[a * T_PITCH + e + T_KOFF] = in ? max_key(v[s]) : INT_MIN;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // 2. each window's first maximum (scanning row by row; the first of equal keys stays), with its d_y
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
    wins[q] = (int2)(best, as_int(best >= 0 ? dys[s] : 0.0f));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  // 3. a work-item gathers T_J blocks side by side (PS rows of whole quads) from the windows that can
  // hold them (block row kr's are the tile's kr .. kr + BW_N - 1, each way), read once into registers;
  // which window can hold which cell is known when compiling, so only those comparisons are made, in
  // window order
#pragma unroll
  for (int s = 0; s < T_STEPS(TILE_BR * (TILE_BC / T_J)); ++s) {
    const int q = lid + s * TILE_WG;
    if (q >= TILE_BR * (TILE_BC / T_J)) break;
    const int kr = q / (TILE_BC / T_J), kc = T_J * (q - kr * (TILE_BC / T_J));
    int2 win[BW_N][TG_NC];
#pragma unroll
    for (int wi = 0; wi < BW_N; ++wi)
#pragma unroll
      for (int wj = 0; wj < TG_NC; ++wj) win[wi][wj] = wins[(kr + wi) * TW_NC + kc + wj];
#pragma unroll
    for (int t = 0; t < PS; ++t) {
      const int row = tr * T_ROWS + kr * PS + t, col = col0 + kc * PS;
      if (row >= h) break;
      float g[PS * T_J];
#pragma unroll
      for (int u = 0; u < PS * T_J; ++u) {
        const int at = (kr * PS + t - BW_OFF) * T_PITCH + kc * PS + u - BW_OFF + T_KOFF;  // the cell's place in keys
        g[u] = 0.0f;
#pragma unroll
        for (int wi = 0; wi < BW_N; ++wi)
#pragma unroll
          for (int wj = 0; wj < TG_NC; ++wj)
            if (t - BW_OFF >= wi * PS && t - BW_OFF < wi * PS + PK && u - BW_OFF >= wj * PS && u - BW_OFF < wj * PS + PK &&
                win[wi][wj].x == at)
              g[u] += as_float(win[wi][wj].y);
      }
      __global real_t* out = d_x + plane * h * w + row * w + col;
      if (quads) {
#pragma unroll
        for (int u = 0; u < PS * T_J; u += 4)  // (w % 4 == 0: a quad is all in or all out)
          if (col + u < w) ST4(out + u, ((float4)(g[u], g[u + 1], g[u + 2], g[u + 3])));
      } else {
#pragma unroll
        for (int u = 0; u < PS * T_J; ++u)
          if (col + u < w) ST(out, u, g[u]);
      }
    }
  }
}
#endif
