// gemm_bias_act_bwd's `wgmma_split` (bf16) and `wgmma_split3` (f16) variants, act != 0, on the
// tensor-core GEMM core: the pre-activation's gradient G = d_y * act'(Z + bias) is a float32
// intermediate, which a 16-bit product takes only rounded, and rounding it is a bug (the catalogue's
// gemm_bias_act_bwd_bf16_rounds_grad_pre). So G goes in as bf16 parts, G = hi + lo + r with
// |r| <= 2^-16 |G| (256 u of float32), and each GEMM sums its depth once a pair of parts.
//
// The parts stand side by side along the GEMM's depth in copies whose kinds a pattern names, decimal
// digits with the first copy first (the plan's args and G_PARTS): 1 lo, 2 hi where finite (else 0),
// 3 hi. A copy of one operand meets the same copy of the other: lo meets hi-where-finite, so that an
// Inf or NaN meets a part only in the hi x hi copy and never makes 0 * Inf = NaN of a lo that is 0.
//   bf16 (wgmma_split): A and B are bf16 already (lo = 0): d_a = G [lo | hi] @ B [2 | 3]^T,
//     d_b = A [2; 3]^T @ G [lo; hi], and Z = A @ B as they are.
//   f16 (wgmma_split3, MMA_OPERANDS_BF16=1): an f16 value is exactly hi + lo in bf16 (11 significant
//     bits, bf16's wide exponent range), so A and B go in as parts too: d_a = G [2 | 1 | 3] @ B [1 | 2
//     | 3]^T (G_lo B_lo left out: <= 2^-16 |G||B|), d_b the same over the rows. Z = A @ B runs f16's
//     own instruction (its step's define MMA_OPERANDS_BF16=0: a program of its own), as bf16's does.
//
// Why this is enough where the plan lets these serve (both G depths m, n >= 1024): the error model
// (check/error_models/gemm.cpp) allows d_a kC (n + 1) u |G| @ |B|^T beyond G's own error (kC = 2). The
// GEMM's sum takes (n + 1) u of it, the small copies first so that their partial sums stay small
// (n u 2^-6 more with two small copies), and G's residual r takes 256 u, f16's left-out G_lo B_lo 256 u
// more: within (n + 1) u from n = 530 on. d_b the same over the rows. d_bias sums G itself in float32.
#include "activation.h"
#include "xgemm_mma.cl"
#include "columns.h"

// (In f16 the GEMM steps on parts need MMA_OPERANDS_BF16=1, and xgemm_mma_grad_split on A and B as given 0.)

// x as its parts (lo, hi where finite, hi): hi is x rounded to bf16, or toward zero where rounding would
// overflow a finite x (then x - hi is still exact), and lo is x - hi rounded; Inf and NaN stay in hi with
// lo = 0 (hi - hi would make a NaN of an infinite x).
inline ushort3 split_parts(float x) {
  ushort hi = float_to_bf16(x);
  if (isinf(bf16_to_float(hi)) && isfinite(x)) hi = (ushort)(as_uint(x) >> 16);
  const int finite = isfinite(x);
  return (ushort3)(finite ? float_to_bf16(x - bf16_to_float(hi)) : (ushort)0, finite ? hi : (ushort)0, hi);
}
// The part of kind 1, 2 or 3 (lo, hi where finite, hi); a pattern's digits, copy q of `copies`.
inline ushort part_of(ushort3 p, int kind) { return kind == 1 ? p.x : kind == 2 ? p.y : p.z; }
inline int pattern_kind(int pattern, int copies, int q) {
  int d = pattern;
  for (int i = q + 1; i < copies; ++i) d /= 10;
  return d % 10;
}
inline int pattern_copies(int pattern) { return pattern >= 1000 ? 4 : pattern >= 100 ? 3 : pattern >= 10 ? 2 : 1; }

#ifndef G_PARTS
#define G_PARTS 13  // G's copies: [lo | hi] (bf16's); f16's plan says 213
#endif
#define G_COPIES (G_PARTS >= 100 ? 3 : 2)

// Z = A @ B [m][n] a tile, and in its epilogue G = d_y * act'(Z + bias[col]) (Z is never stored): G's
// parts (G_PARTS) into parts_a [m][G_COPIES n], each row's copies side by side (d_a's operand: G's
// columns are its depth), and parts_b [G_COPIES m][n], the copies stacked (d_b's: G's rows are its
// depth); and d_bias's partial column sums of the float32 G over the tile's rows, partial[tile row][n]
// (column_sums_finish sums them). Each copy is staged through the slabs' room and written twice in
// 16-byte chunks (STAGE_PAIRS, WRITE_STAGED). The plans require the room for d_y's 16-bit tile and the
// bias's columns, MWG * NWG + 2 * NWG <= STAGES * (MWG + NWG) * KWG, which also holds the column sums'
// MWARPS * 8 rows of floats.
// Replaced a GEMM that stored Z in float32 and a pass that read it back (on the H100 at 4096 x 1024 x
// 4096 in bf16: 0.097 + 0.123 ms, bench/results/h100-2026-11-27d/core/run7).
// Global (cdiv(n, NWG) * WGS, cdiv(m, MWG), 1), local (WGS, 1, 1).
#define PART_PAIR(kind, g0, g1, row, col) \
  ((uint)part_of(split_parts(g0), kind) | (uint)part_of(split_parts(g1), kind) << 16)

__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_mma_grad_split(int m, int n, int k, __global const real_t* a, __global const real_t* b, __global const real_t* d_y,
                          __global const real_t* bias, int act, __global real_t* parts_a, __global real_t* parts_b,
                          __global float* partial) {
  XGEMM_MMA_LOCALS
  xgemm_mma_accumulate(m, n, k, RAW(a), k, 0, k % 8 == 0, RAW(b), n, 0, n % 8 == 0, as4, bs4, acc, emu);
  const int lane = get_local_id(0) % 32, warp = get_local_id(0) / 32, gi = lane / 4, t = lane % 4;
  const int tr0 = warp / NWARPS * (MWG / MWARPS) + gi, tc0 = warp % NWARPS * (NWG / NWARPS) + 2 * t;
  const int m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
  // d_y's tile (in STAGE_PAIRS's layout) and the bias's columns into local memory first, in 16-byte
  // loads all in flight at once: loaded beside each accumulator pair, each load was waited for in turn.
  __local uint4* const dy_tile = as4;
  __local float* const bias_cols = (__local float*)(as4 + MWG * NWG / 8);
  barrier(CLK_LOCAL_MEM_FENCE);  // every warp's last slab read
#pragma unroll
  for (int u = 0; u < (MWG * NWG / 8 + WGS - 1) / WGS; ++u) {
    const int e = get_local_id(0) + u * WGS;
    const int tr = e / (NWG / 8), tc = e % (NWG / 8) * 8, row = m0 + tr, col = n0 + tc;
    if (e >= MWG * NWG / 8) break;
    uint4 v = (uint4)(0);
    if (row < m) {
      __global const ushort* const at = RAW(d_y) + (long)row * n + col;
      if (n % 8 == 0 && col + 8 <= n) {
        v = *(__global const uint4*)at;
      } else {
        uint w[4] = {0, 0, 0, 0};
        for (int q = 0; q < 8 && col + q < n; ++q) w[q / 2] |= (uint)at[q] << (16 * (q % 2));
        v = (uint4)(w[0], w[1], w[2], w[3]);
      }
    }
    dy_tile[STAGED_CHUNK(tr, tc)] = v;
  }
  for (int c = get_local_id(0); c < NWG; c += WGS) bias_cols[c] = n0 + c < n ? LD(bias, n0 + c) : 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  // G in place of Z in the accumulators, 0 outside the matrix (so that it adds nothing to the sums).
#pragma unroll
  for (int i = 0; i < MFR; ++i)
#pragma unroll
    for (int j = 0; j < NFR; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int tr = tr0 + 16 * i + 8 * h, tc = tc0 + 8 * j, at = 4 * (i * NFR + j) + 2 * h;
        const int inside = m0 + tr < m, col = n0 + tc;
        const float2 dy = pair_floats(((__local const uint*)dy_tile)[STAGED_CHUNK(tr, tc) * 4 + (tc % 8) / 2]);
        acc[at] = inside && col < n ? dy.x * EPILOGUE_ACT_SLOPE(act, acc[at] + bias_cols[tc]) : 0.0f;
        acc[at + 1] = inside && col + 1 < n ? dy.y * EPILOGUE_ACT_SLOPE(act, acc[at + 1] + bias_cols[tc + 1]) : 0.0f;
      }
  // d_bias's partial sums: each lane's over its rows, then the MWARPS * 8 lanes' rows of a column in
  // order through local memory (no atomics: the same inputs give the same bits).
  __local float* const sums = (__local float*)as4;
  barrier(CLK_LOCAL_MEM_FENCE);  // every warp's last read of d_y's tile
#pragma unroll
  for (int j = 0; j < NFR; ++j)
#pragma unroll
    for (int x = 0; x < 2; ++x) {
      float s = 0.0f;
#pragma unroll
      for (int i = 0; i < MFR; ++i) s += acc[4 * (i * NFR + j) + x] + acc[4 * (i * NFR + j) + 2 + x];
      sums[(warp / NWARPS * 8 + gi) * NWG + tc0 + 8 * j + x] = s;
    }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = get_local_id(0); c < NWG; c += WGS) {
    if (n0 + c >= n) break;
    float s = 0.0f;
    for (int r = 0; r < MWARPS * 8; ++r) s += sums[r * NWG + c];
    partial[(long)get_group_id(1) * n + n0 + c] = s;
  }
  // The parts, a copy at a time (STAGE_PAIRS's first barrier waits for the sums' readers).
#pragma unroll
  for (int q = 0; q < G_COPIES; ++q) {
    const int kind = pattern_kind(G_PARTS, G_COPIES, q);
    STAGE_PAIRS(PART_PAIR, kind)
    WRITE_STAGED(parts_a + q * n, G_COPIES * n, n % 8 == 0, m, n)
    WRITE_STAGED(parts_b + (long)q * m * n, n, n % 8 == 0, m, n)
  }
}

// An operand as copies of its parts along the GEMM's depth, their kinds the digits of `pattern`:
// element (r, c) of src [rows][cols] to dst at r * ld + c + q * second for copy q ([X | Y]: ld = copies
// cols, second = cols; [X; Y]: ld = cols, second = rows * cols). Four elements a work-item, in 8-byte
// accesses where cols is a multiple of 4 (then ld and second are too); the row and column in 32-bit
// division where they fit (64-bit division is a long subroutine on GPUs). One 2-byte element a
// work-item, two copies, took 23 us for a 1024 x 4096 B on the H100, four elements 17 us.
// Global roundup(cdiv(rows * cols, 4), 256).
__kernel void stack_parts(__global const real_t* restrict src, long rows, int cols, long ld, long second, int pattern,
                          __global real_t* restrict dst_) {
  __global ushort* const dst = (__global ushort*)dst_;
  const long e0 = get_global_id(0) * 4, total = rows * cols;
  if (e0 >= total) return;
  const int copies = pattern_copies(pattern);
  if (cols % 4 == 0) {
    const long r = e0 <= UINT_MAX ? (uint)e0 / (uint)cols : e0 / cols, c = e0 - r * cols;
    const float4 x = LD4(src + e0);
    const ushort3 p0 = split_parts(x.x), p1 = split_parts(x.y), p2 = split_parts(x.z), p3 = split_parts(x.w);
    for (int q = 0; q < copies; ++q) {
      const int kind = pattern_kind(pattern, copies, q);
      *(__global ushort4*)(dst + r * ld + c + q * second) =
          (ushort4)(part_of(p0, kind), part_of(p1, kind), part_of(p2, kind), part_of(p3, kind));
    }
    return;
  }
  for (long e = e0; e < min(e0 + 4, total); ++e) {
    const long r = e <= UINT_MAX ? (uint)e / (uint)cols : e / cols, c = e - r * cols;
    const ushort3 p = split_parts(LD(src, e));
    for (int q = 0; q < copies; ++q) dst[r * ld + c + q * second] = part_of(p, pattern_kind(pattern, copies, q));
  }
}
