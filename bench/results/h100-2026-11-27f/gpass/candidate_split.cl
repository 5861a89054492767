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
// float32 G, CHUNK rows a work-item (columns.h's first pass). Four columns a work-item. Where n % 4 == 0
// the loads are 16 bytes of Z and 8 of d_y, G_ROWS rows' loads issued before any is used: bytes in
// flight are what a streaming kernel's speed is made of (two columns and one row an iteration, 12 bytes
// a work-item in flight, took 122 us at 4096 x 4096 in bf16 on the H100, 1.8 TB/s of its 224 MiB).
// Global (roundup(cdiv(n, 4), 64), cdiv(rows, CHUNK)).
#ifndef G_ROWS
#define G_ROWS 2  // rows an iteration whose loads are in flight together (n % 4 == 0)
#endif
inline void put_parts(float g, long r, int c, int rows, int n, __global ushort* parts_a, __global ushort* parts_b) {
  const ushort3 p = split_parts(g);
#pragma unroll
  for (int q = 0; q < G_COPIES; ++q) {
    const ushort v = part_of(p, pattern_kind(G_PARTS, G_COPIES, q));
    parts_a[G_COPIES * r * n + q * n + c] = v;
    parts_b[((long)q * rows + r) * n + c] = v;
  }
}
// Row r's four G values at columns col .. col + 3 (n % 4 == 0) from their loaded Z and d_y, into s.
inline void put_parts4(float4 zz, float4 dy, float4 b, int act, long r, int col, int rows, int n, __global ushort* parts_a,
                       __global ushort* parts_b, float4* s) {
  const float4 g = (float4)(dy.x * act_slope(act, zz.x + b.x), dy.y * act_slope(act, zz.y + b.y), dy.z * act_slope(act, zz.z + b.z),
                            dy.w * act_slope(act, zz.w + b.w));
  *s += g;
  const ushort3 p0 = split_parts(g.x), p1 = split_parts(g.y), p2 = split_parts(g.z), p3 = split_parts(g.w);
#pragma unroll
  for (int q = 0; q < G_COPIES; ++q) {
    const int kind = pattern_kind(G_PARTS, G_COPIES, q);
    const ushort4 v = (ushort4)(part_of(p0, kind), part_of(p1, kind), part_of(p2, kind), part_of(p3, kind));
    *(__global ushort4*)(parts_a + G_COPIES * r * n + q * n + col) = v;
    *(__global ushort4*)(parts_b + ((long)q * rows + r) * n + col) = v;
  }
}
__kernel void grad_pre_split(__global const float* restrict z, __global const real_t* restrict d_y,
                             __global const real_t* restrict bias, int act, int rows, int n, __global real_t* restrict parts_a_,
                             __global real_t* restrict parts_b_, __global float* restrict partial) {
  __global ushort* const parts_a = (__global ushort*)parts_a_;
  __global ushort* const parts_b = (__global ushort*)parts_b_;
  const int col = 4 * get_global_id(0), chunk = get_global_id(1);
  if (col >= n) return;
  const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);
  if (n % 4 == 0) {  // every place below a multiple of 4: aligned vector accesses
    const float4 b = LD4(bias + col);
    float4 s = (float4)(0.0f);
    long r = r0;
    for (; r + G_ROWS <= r1; r += G_ROWS) {
      float4 zz[G_ROWS], dy[G_ROWS];
#pragma unroll
      for (int j = 0; j < G_ROWS; ++j) {
        zz[j] = *(__global const float4*)(z + (r + j) * n + col);
        dy[j] = LD4(d_y + (r + j) * n + col);
      }
#pragma unroll
      for (int j = 0; j < G_ROWS; ++j) put_parts4(zz[j], dy[j], b, act, r + j, col, rows, n, parts_a, parts_b, &s);
    }
    for (; r < r1; ++r)
      put_parts4(*(__global const float4*)(z + r * n + col), LD4(d_y + r * n + col), b, act, r, col, rows, n, parts_a, parts_b, &s);
    *(__global float4*)(partial + (long)chunk * n + col) = s;
    return;
  }
  const int cols = min(4, n - col);
  for (int c = col; c < col + cols; ++c) {  // column by column: 2-byte accesses, each row's in turn
    const float bc = LD(bias, c);
    float s = 0.0f;
    for (long r = r0; r < r1; ++r) {
      const float g = LD(d_y, r * n + c) * act_slope(act, z[r * n + c] + bc);
      s += g;
      put_parts(g, r, c, rows, n, parts_a, parts_b);
    }
    partial[(long)chunk * n + c] = s;
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
