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
//
// bf16 without copies (wgmma_split_pairs, where n is a multiple of 8): G as a pair whose parts
// are both nonzero and of G's sign wherever G is nonzero (split_pair), so that an Inf of A or B may meet
// either part and give G's infinity, never 0 * Inf = NaN. G's parts go out once, [lo; hi] (m n apart),
// from Z's GEMM itself (xgemm_mma_grad_pairs: Z never goes to memory);
// the GEMMs read them and A and B in place, each operand's depth in two halves (DEPTH_HALVES, xgemm_mma_async.h):
// d_a = [lo | hi] @ [B | B]^T, d_b = [A; A]^T @ [lo; hi], the lo products first as above. The residual
// is at most 2^-15 |G| (512 u) or 2^-132 where G is below FLT_MIN (the model's underflow term): within
// (n + 1) u from n = 520 on. Where A or B holds an Inf, that row or column of Z is not finite, so G there
// is d_y (act' = 1), 0 or NaN: a nonzero G meeting an Inf is never below bf16's smallest subnormal.
#include "activation.h"
#if DEPTH_HALVES
#if !ASYNC
#error "xgemm_mma_halves: DEPTH_HALVES needs ASYNC=1"
#endif
#include "xgemm_mma.h"

// C = op(A) @ op(B) over an even depth k in two halves, each operand's second half
// a_half or b_half elements after its first: the slabs' loop (xgemm_mma_async.h) run over the first half,
// then over the second adding to its sums, the same loop as xgemm_mma's. Worked into the loop instead
// (the half and its slab from the slab's number, or counted along), the same sums took 10% longer:
// 0.155 and 0.150 ms against xgemm_mma's 0.140 and 0.130 on the same inputs, with 4% more instructions
// in the loop (H100, 2026-11-27). Global and local as xgemm_mma's.
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_mma_halves(int m, int n, int k, __global const real_t* a, int lda, int ta, long a_half, __global const real_t* b,
                      int ldb, int tb, long b_half, __global real_t* c, int ldc) {
  XGEMM_MMA_LOCALS
  const int a_aligned = lda % 8 == 0 && a_half % 8 == 0, b_aligned = ldb % 8 == 0 && b_half % 8 == 0;
  xgemm_mma_accumulate(m, n, k / 2, RAW(a), lda, ta, a_aligned, RAW(b), ldb, tb, b_aligned, as4, bs4, acc, emu, 0);
  barrier(CLK_LOCAL_MEM_FENCE);  // every warp's last slab read before the second half's first copies
  xgemm_mma_accumulate(m, n, k / 2, RAW(a) + a_half, lda, ta, a_aligned, RAW(b) + b_half, ldb, tb, b_aligned, as4, bs4, acc, emu, 1);
#define PLAIN(v, row, col) (v)
  STORE_FRAGMENTS(c, ldc, 0, m, n, PLAIN)
}
#else
#include "xgemm_mma.cl"
#include "columns.h"

// Z = A @ B [rows][n] in float32 (bias and slope are the next step's). Global and local as xgemm_mma's.
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_mma_pre(int m, int n, int k, __global const real_t* a, int lda, __global const real_t* b, int ldb,
                   __global float* z_out) {
  XGEMM_MMA_LOCALS
  xgemm_mma_accumulate(m, n, k, RAW(a), lda, 0, lda % 8 == 0, RAW(b), ldb, 0, ldb % 8 == 0, as4, bs4, acc, emu);
  __global float* const c_at_ = z_out;
  const long ldc_at_ = n;
  STORE_FRAGMENTS_AS(ROW_MAJOR_AT, n % 2 == 0, m, n, PLAIN, ST2_FLOAT, ST_FLOAT)
}

// (In f16 the GEMM steps on parts need MMA_OPERANDS_BF16=1, and xgemm_mma_pre on A and B as given 0.)

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

// G = d_y * act'(Z + bias[col]) over Z [rows][n] as its parts (G_PARTS): into parts_a [rows][G_COPIES n],
// each row's copies side by side (d_a's operand: G's columns are its depth), and parts_b [G_COPIES rows]
// [n], the copies stacked (d_b's: G's rows are its depth); and d_bias's partial column sums of the
// float32 G, CHUNK rows a work-item (columns.h's first pass). Two columns a work-item, in 4- and 8-byte
// accesses where n is even. At 4096 x 4096 in bf16 on the H100 it takes 122 us, as one column a
// work-item in 2-byte accesses did; CHUNK 16 or 32 changes nothing and the row loop unrolled by 4 takes
// 230 (H100, 2026-11-26): what bounds it is not found yet.
// Global (roundup(cdiv(n, 2), 64), cdiv(rows, CHUNK)).
inline void put_parts(float g, long r, int c, int rows, int n, __global ushort* parts_a, __global ushort* parts_b) {
  const ushort3 p = split_parts(g);
#pragma unroll
  for (int q = 0; q < G_COPIES; ++q) {
    const ushort v = part_of(p, pattern_kind(G_PARTS, G_COPIES, q));
    parts_a[G_COPIES * r * n + q * n + c] = v;
    parts_b[((long)q * rows + r) * n + c] = v;
  }
}
// Two neighbouring columns c, c + 1 of row r (c and n even), in 4-byte accesses.
inline void put_parts_two(float g0, float g1, long r, int c, int rows, int n, __global ushort* parts_a, __global ushort* parts_b) {
  const ushort3 p0 = split_parts(g0), p1 = split_parts(g1);
#pragma unroll
  for (int q = 0; q < G_COPIES; ++q) {
    const int kind = pattern_kind(G_PARTS, G_COPIES, q);
    const ushort2 v = (ushort2)(part_of(p0, kind), part_of(p1, kind));
    *(__global ushort2*)(parts_a + G_COPIES * r * n + q * n + c) = v;
    *(__global ushort2*)(parts_b + ((long)q * rows + r) * n + c) = v;
  }
}
__kernel void grad_pre_split(__global const float* restrict z, __global const real_t* restrict d_y,
                             __global const real_t* restrict bias, int act, int rows, int n, __global real_t* restrict parts_a_,
                             __global real_t* restrict parts_b_, __global float* restrict partial) {
  __global ushort* const parts_a = (__global ushort*)parts_a_;
  __global ushort* const parts_b = (__global ushort*)parts_b_;
  const int col = 2 * get_global_id(0), chunk = get_global_id(1);
  if (col >= n) return;
  const int two = col + 1 < n;
  const float b0 = LD(bias, col), b1 = two ? LD(bias, col + 1) : 0.0f;
  const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);
  float s0 = 0.0f, s1 = 0.0f;
  for (long r = r0; r < r1; ++r) {
    const long i = r * n + col;
    if (n % 2 == 0) {
      const float2 zz = *(__global const float2*)(z + i), dy = LD2(d_y + i);
      const float g0 = dy.x * act_slope(act, zz.x + b0), g1 = dy.y * act_slope(act, zz.y + b1);
      s0 += g0;
      s1 += g1;
      put_parts_two(g0, g1, r, col, rows, n, parts_a, parts_b);
    } else {
      for (int q = 0; q <= two; ++q) {
        const float g = LD(d_y, i + q) * act_slope(act, z[i + q] + (q ? b1 : b0));
        if (q)
          s1 += g;
        else
          s0 += g;
        put_parts(g, r, col + q, rows, n, parts_a, parts_b);
      }
    }
  }
  partial[(long)chunk * n + col] = s0;
  if (two) partial[(long)chunk * n + col + 1] = s1;
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

// x as the pair (lo, hi), x = hi + lo + r: hi is x toward zero in bf16, one ulp further where that is x
// itself, and lo is x - hi rounded, so both are nonzero and of x's sign (|r| <= 2^-15 |x|); where x is
// so small that hi or lo would be 0, that part is the smallest subnormal of x's sign (|r| <= 2^-132).
// 0, Inf and NaN are both parts.
inline ushort2 split_pair(float x) {
  if (x == 0.0f || !isfinite(x)) {
    const ushort h = float_to_bf16(x);
    return (ushort2)(h, h);
  }
  const uint bits = as_uint(x);
  const ushort sign = (ushort)(bits >> 16) & 0x8000;
  ushort hi = (ushort)(bits >> 16);       // toward zero
  if ((bits & 0xffff) == 0) hi -= 1;      // x itself: one ulp toward zero (the magnitude is nonzero)
  if ((hi & 0x7fff) == 0) hi = sign | 1;  // below bf16's smallest subnormal
  ushort lo = float_to_bf16(x - bf16_to_float(hi));
  if ((lo & 0x7fff) == 0 || (lo & 0x8000) != sign) lo = sign | 1;
  return (ushort2)(lo, hi);
}

// The pairs' Z and G in one step: Z = A @ B [m][n] on the GEMM core, and after it G = d_y * act'(Z +
// bias) as its pairs into parts [2][m][n] (lo, then hi) and d_bias's partial column sums of the float32
// G, one row of partials a work-group's MWG rows (partial [cdiv(m, MWG)][n]; columns.h's second pass adds
// them up). Z never goes to memory: its float32 write and read are gone. n a multiple of 8 (the plan's
// condition): G's rows in whole 16-byte chunks. Global and local as xgemm_mma's.
//
// The tile goes through local memory (the slabs' room) a round of GP_WARPS warps' rows at a time, and
// out row-major: a work-item takes 8 columns (one 16-byte load of d_y, one store of each part) of every
// GP_STEP-th row. G computed in the accumulators' own layout instead (4-byte accesses, the slope inlined
// 128 times) took 0.50 ms at 4096 x 1024 x 4096 against 0.097 + 0.108 for the two steps it joins; this
// form 0.177; with each round's d_y loaded for all of a work-item's rows at once (the loop unrolled, the
// slope inlined 40 times) 0.319 (H100, 2026-11-28). The slope with the
// activation's code a variable went through act_slope's switch a column at a time (the SASS): with the
// code a constant (ACT_CONSTANT) the step takes 0.164 (H100, 2026-11-28).
// d_bias's partials: each work-item sums its rows, then the work-items of a column in order of their
// first row (a fixed order: the same bits every run). bf16 only, as split_pair: d_y is read as bf16.
#if NWARPS != 1
#error "xgemm_mma_grad_pairs: one warp across the tile (NWARPS=1)"
#endif
#define GP_LD (NWG + 4)                                                    // the staged rows' stride in floats (4: a warp's 8 rows of pairs over all banks)
#define GP_ROOM (SLABS_IN_LOCAL * (MWG + NWG) * KWG * 2)                   // bytes
#define GP_WARPS_FIT (GP_ROOM / ((MWG / MWARPS) * GP_LD * 4))              // warps' rows a round
#define GP_WARPS (GP_WARPS_FIT < MWARPS ? GP_WARPS_FIT : MWARPS)
#define GP_CPR (NWG / 8)                                                   // 8-column chunks a row
#define GP_STEP (WGS / GP_CPR)                                             // rows a pass of the work-group
#if GP_WARPS < 1 || GP_STEP < 1 || GP_STEP * NWG * 4 > GP_ROOM
#error "xgemm_mma_grad_pairs: a warp's rows of the tile, or the column sums, do not fit the slabs' room"
#endif
// A round's rows of the staged tile (its columns from z on): G = d_y * act'(Z + bias) of a work-item's 8
// columns in rows r_first, r_first + GP_STEP, .. below rows (row_first + r of the matrix), its pairs
// stored, G added to sum8. kind: a constant in each of ACT_CONSTANT's copies (activation.h).
inline void gp_rows(const int kind, __local const float* z, int rows, int r_first, int row_first, int m, int n, int col,
                    __global const ushort* d_y, __global ushort* lo, __global ushort* hi, const float bias8[8], float sum8[8]) {
#pragma unroll 1
  for (int r = r_first; r < rows; r += GP_STEP) {
    const int row = row_first + r;
    if (row >= m) break;
    const long at = (long)row * n + col;
    const uint4 dy = *(__global const uint4*)(d_y + at);
    const uint w[4] = {dy.x, dy.y, dy.z, dy.w};
    float g[8];
#pragma unroll
    for (int q = 0; q < 8; ++q)
      g[q] = bf16_to_float((ushort)(w[q / 2] >> (16 * (q % 2)))) * EPILOGUE_ACT_SLOPE(kind, z[r * GP_LD + q] + bias8[q]);
    uint lw[4], hw[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const ushort2 p0 = split_pair(g[2 * q]), p1 = split_pair(g[2 * q + 1]);
      lw[q] = (uint)p0.x | (uint)p1.x << 16;
      hw[q] = (uint)p0.y | (uint)p1.y << 16;
    }
    *(__global uint4*)(lo + at) = (uint4)(lw[0], lw[1], lw[2], lw[3]);
    *(__global uint4*)(hi + at) = (uint4)(hw[0], hw[1], hw[2], hw[3]);
#pragma unroll
    for (int q = 0; q < 8; ++q) sum8[q] += g[q];
  }
}
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_mma_grad_pairs(int m, int n, int k, __global const real_t* a, __global const real_t* b, __global const real_t* d_y_,
                          __global const real_t* bias, int act, __global real_t* parts_, __global float* partial) {
  XGEMM_MMA_LOCALS
  xgemm_mma_accumulate(m, n, k, RAW(a), k, 0, k % 8 == 0, RAW(b), n, 0, n % 8 == 0, as4, bs4, acc, emu);
  __global const ushort* const d_y = (__global const ushort*)d_y_;
  __global ushort* const lo = (__global ushort*)parts_, *const hi = lo + (long)m * n;
  __local float* const tile = (__local float*)as4;
  const int lid = get_local_id(0), lane = lid % 32, warp = lid / 32, gi = lane / 4, t = lane % 4;
  const int m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
  const int rpw = MWG / MWARPS;  // a warp's rows
  const int cc = lid % GP_CPR * 8, col = n0 + cc, active = lid < GP_STEP * GP_CPR && col < n;
  float bias8[8], sum8[8];
  for (int q = 0; q < 8; ++q) {
    bias8[q] = col < n ? LD(bias, col + q) : 0.0f;
    sum8[q] = 0.0f;
  }
  for (int round = 0; round * GP_WARPS < MWARPS; ++round) {
    barrier(CLK_LOCAL_MEM_FENCE);  // the slabs' last readers (round 0), the last round's rows read
    if (warp / GP_WARPS == round) {
      const int tr0 = (warp - round * GP_WARPS) * rpw + gi;
#pragma unroll
      for (int i = 0; i < MFR; ++i)
#pragma unroll
        for (int j = 0; j < NFR; ++j)
#pragma unroll
          for (int h = 0; h < 2; ++h)
            *(__local float2*)(tile + (tr0 + 16 * i + 8 * h) * GP_LD + 8 * j + 2 * t) =
                (float2)(acc[4 * (i * NFR + j) + 2 * h], acc[4 * (i * NFR + j) + 2 * h + 1]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int first = round * GP_WARPS * rpw, rows = min(GP_WARPS, MWARPS - round * GP_WARPS) * rpw;
    if (active) ACT_CONSTANT(act, gp_rows(ACT_KIND, tile + cc, rows, lid / GP_CPR, m0 + first, m, n, col, d_y, lo, hi, bias8, sum8);)
  }
  barrier(CLK_LOCAL_MEM_FENCE);  // the last round's rows read
  if (active)
    for (int q = 0; q < 8; ++q) tile[lid / GP_CPR * NWG + cc + q] = sum8[q];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int c = lid; c < NWG && n0 + c < n; c += WGS) {
    float s = 0.0f;
    for (int p = 0; p < GP_STEP; ++p) s += tile[p * NWG + c];
    partial[(long)get_group_id(1) * n + n0 + c] = s;
  }
}
#endif  // DEPTH_HALVES
