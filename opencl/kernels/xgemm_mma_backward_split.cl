// gemm_bias_act_bwd's `wgmma_split` variant (bf16, act != 0) on the tensor-core GEMM core: the
// pre-activation's gradient G = d_y * act'(Z + bias) is a float32 intermediate, which a bf16 product
// takes only rounded, and rounding it is a bug (the catalogue's gemm_bias_act_bwd_bf16_rounds_grad_pre).
// So G goes in as two bf16 parts, G = hi + lo + r with |r| <= 2^-16 |G| (256 u of float32), and each
// GEMM sums twice its depth: d_a = [lo | hi] @ [B | B]^T, d_b = [A; A]^T @ [lo; hi].
//
// Why two parts are enough where the plan lets this variant serve (both depths >= 1024): the error
// model (check/error_models/gemm.cpp) allows d_a kC (n + 1) u |G| @ |B|^T beyond G's own error (kC = 2);
// the GEMM's sum takes (n + 1) u of it, the lo products first so that their partial sums stay small
// (n u 2^-7 more), and the residual r takes 256 u: within (n + 1) u from n = 256 on. d_b the same over
// the rows. d_bias sums G itself in float32. Three parts (r <= 2^-24 |G|) would serve any depth at
// 3/2 the products.
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

#if !defined(DTYPE_BF16)
#error "wgmma_split takes bf16 alone (its plan's dtypes)"
#endif

// g as its parts (lo, hi): hi is g rounded to bf16, or toward zero where rounding would overflow a
// finite g (then g - hi is still exact), and lo is g - hi rounded; Inf and NaN stay in hi with lo = 0
// (hi - hi would make a NaN of an infinite G).
inline ushort2 split_parts(float g) {
  ushort hi = float_to_bf16(g);
  if (isinf(bf16_to_float(hi)) && isfinite(g)) hi = (ushort)(as_uint(g) >> 16);
  return (ushort2)(isfinite(g) ? float_to_bf16(g - bf16_to_float(hi)) : (ushort)0, hi);
}

// G = d_y * act'(Z + bias[col]) over Z [rows][n] as its parts: into
// parts_a [rows][2n], each row's lo then hi (d_a's operand: G's columns are its depth), and parts_b
// [2 rows][n], every lo row then every hi row (d_b's: G's rows are its depth); and d_bias's partial
// column sums of the float32 G, CHUNK rows a work-item (columns.h's first pass). Two columns a
// work-item, in 4- and 8-byte accesses where n is even. At 4096 x 4096 on the H100 it takes 122 us, as
// one column a work-item in 2-byte accesses did; CHUNK 16 or 32 changes nothing and the row loop
// unrolled by 4 takes 230 (split/run6, run7): what bounds it is not found yet.
// Global (roundup(cdiv(n, 2), 64), cdiv(rows, CHUNK)).
inline void put_parts(float g, long r, int c, int rows, int n, __global ushort* parts_a, __global ushort* parts_b) {
  const ushort2 p = split_parts(g);
  parts_a[2 * r * n + c] = p.x;
  parts_a[2 * r * n + n + c] = p.y;
  parts_b[r * n + c] = p.x;
  parts_b[(rows + r) * n + c] = p.y;
}
__kernel void grad_pre_split(__global const float* restrict z, __global const real_t* restrict d_y,
                             __global const real_t* restrict bias, int act, int rows, int n, __global real_t* restrict parts_a,
                             __global real_t* restrict parts_b, __global float* restrict partial) {
  const int col = 2 * get_global_id(0), chunk = get_global_id(1);
  if (col >= n) return;
  const int two = col + 1 < n;
  const float b0 = LD(bias, col), b1 = two ? LD(bias, col + 1) : 0.0f;
  const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);
  float s0 = 0.0f, s1 = 0.0f;
  for (long r = r0; r < r1; ++r) {
    const long i = r * n + col;
    if (n % 2 == 0) {  // col and col + 1, both in the row; every place below even
      const float2 zz = *(__global const float2*)(z + i);
      const ushort2 dy = *(__global const ushort2*)(d_y + i);
      const float g0 = bf16_to_float(dy.x) * act_slope(act, zz.x + b0), g1 = bf16_to_float(dy.y) * act_slope(act, zz.y + b1);
      s0 += g0;
      s1 += g1;
      const ushort2 p0 = split_parts(g0), p1 = split_parts(g1), lo = (ushort2)(p0.x, p1.x), hi = (ushort2)(p0.y, p1.y);
      *(__global ushort2*)(parts_a + 2 * r * n + col) = lo;
      *(__global ushort2*)(parts_a + 2 * r * n + n + col) = hi;
      *(__global ushort2*)(parts_b + i) = lo;
      *(__global ushort2*)(parts_b + (long)rows * n + i) = hi;
    } else {
      const float g0 = LD(d_y, i) * act_slope(act, z[i] + b0);
      s0 += g0;
      put_parts(g0, r, col, rows, n, parts_a, parts_b);
      if (two) {
        const float g1 = LD(d_y, i + 1) * act_slope(act, z[i + 1] + b1);
        s1 += g1;
        put_parts(g1, r, col + 1, rows, n, parts_a, parts_b);
      }
    }
  }
  partial[(long)chunk * n + col] = s0;
  if (two) partial[(long)chunk * n + col + 1] = s1;
}

// An operand stacked twice along the GEMM's depth: element (r, c) of src [rows][cols] to dst at
// r * ld + c and at r * ld + c + second ([B | B]: ld = 2 cols, second = cols; [A; A]: ld = cols,
// second = rows * cols). Four elements a work-item, in 8-byte accesses where cols is a multiple of 4
// (then ld and second are too); the row and column in 32-bit division where they fit (64-bit division
// is a long subroutine on GPUs). One 2-byte element a work-item took 23 us for a 1024 x 4096 B on the
// H100. Global roundup(cdiv(rows * cols, 4), 256).
__kernel void repeat_twice(__global const real_t* restrict src, long rows, int cols, long ld, long second,
                           __global real_t* restrict dst) {
  const long e0 = get_global_id(0) * 4, total = rows * cols;
  if (e0 >= total) return;
  if (cols % 4 == 0) {
    const long r = e0 <= UINT_MAX ? (uint)e0 / (uint)cols : e0 / cols, c = e0 - r * cols;
    const ushort4 v = *(__global const ushort4*)(src + e0);
    *(__global ushort4*)(dst + r * ld + c) = v;
    *(__global ushort4*)(dst + r * ld + c + second) = v;
    return;
  }
  for (long e = e0; e < min(e0 + 4, total); ++e) {
    const long r = e <= UINT_MAX ? (uint)e / (uint)cols : e / cols, c = e - r * cols;
    dst[r * ld + c] = src[e];
    dst[r * ld + c + second] = src[e];
  }
}
