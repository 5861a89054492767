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

// g's high part: g rounded to bf16, or toward zero where rounding would overflow a finite g (then
// g - hi is still exact and lo holds the rest).
inline ushort split_hi(float g) {
  const ushort hi = float_to_bf16(g);
  return isinf(bf16_to_float(hi)) && isfinite(g) ? (ushort)(as_uint(g) >> 16) : hi;
}

// G = d_y * act'(Z + bias[col]) over Z [rows][n] (every batch entry's rows stacked) as its parts: into
// parts_a [rows][2n], each row's lo then hi (d_a's operand: G's columns are its depth), and parts_b
// [2 rows][n], every lo row then every hi row (d_b's: G's rows are its depth); and d_bias's partial
// column sums of the float32 G, CHUNK rows a work-item (columns.h's first pass). Inf and NaN stay in hi
// with lo = 0 (hi - hi would make a NaN of an infinite G). Global (roundup(n, 64), cdiv(rows, CHUNK)).
__kernel void grad_pre_split(__global const float* restrict z, __global const real_t* restrict d_y,
                             __global const real_t* restrict bias, int act, int rows, int n, __global real_t* restrict parts_a,
                             __global real_t* restrict parts_b, __global float* restrict partial) {
  const int col = get_global_id(0), chunk = get_global_id(1);
  if (col >= n) return;
  const float b = LD(bias, col);
  const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);
  float s = 0.0f;
  for (long r = r0; r < r1; ++r) {
    const long i = r * n + col;
    const float g = LD(d_y, i) * act_slope(act, z[i] + b);
    s += g;
    const ushort hi = split_hi(g), lo = isfinite(g) ? float_to_bf16(g - bf16_to_float(hi)) : (ushort)0;
    parts_a[2 * r * n + col] = lo;
    parts_a[2 * r * n + n + col] = hi;
    parts_b[i] = lo;
    parts_b[(long)rows * n + i] = hi;
  }
  partial[(long)chunk * n + col] = s;
}

// An operand stacked twice along the GEMM's depth: element (r, c) of src [rows][cols] to dst at
// r * ld + c and at r * ld + c + second ([B | B]: ld = 2 cols, second = cols; [A; A]: ld = cols,
// second = rows * cols). Global roundup(rows * cols, 256), one element a work-item; the row and column
// in 32-bit division where they fit (64-bit division is a long subroutine on GPUs).
__kernel void repeat_twice(__global const real_t* restrict src, long rows, int cols, long ld, long second,
                           __global real_t* restrict dst) {
  const long e = get_global_id(0);
  if (e >= rows * cols) return;
  const long r = e <= UINT_MAX ? (uint)e / (uint)cols : e / cols, c = e - r * cols;
  const real_t v = src[e];
  dst[r * ld + c] = v;
  dst[r * ld + c + second] = v;
}
