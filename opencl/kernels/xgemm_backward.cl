// gemm_bias_act_bwd's `xgemm` variant: the product Z = A @ B from the tuned GEMM core into float32
// scratch, then the pre-activation's gradient G = d_y * act'(Z + bias) in place over it with d_bias's
// partial column sums (one pass), then d_a = G @ B^T, d_b = A^T @ G and the column sums' second pass
// (columns.h). G came from the GEMM's epilogue before (the slope's code beside 128 accumulators a
// work-item); on the H100 the two steps now take 0.860 + 0.094 ms and the whole backward 2.663 where
// it took 2.762 (4096x1024x4096, gelu_tanh, paired): the separate pass reads Z and d_y once and
// writes G once, and d_bias's first pass, which read G anyway, comes with it.
// G is float32 scratch in every storage format (rounding it to f16 or bf16 would round an
// intermediate), so the two GEMMs that read it take one float32 operand and one in the format:
// g_operand says which slab comes from g. Each entry passes it as a literal, so the test folds away.
#include "activation.h"
#define XGEMM_PARAMS , __global const float* g, int g_operand  // 0: neither, 1: A is g, 2: B is g
#define XGEMM_SLAB_A(k0, ra) \
  (g_operand == 1 ? slab_a_float(g, lda, !ta, m0, k0, m, k, ra) : slab_a(a, lda, !ta, m0, k0, m, k, ra))
#define XGEMM_SLAB_B(k0, rb) \
  (g_operand == 2 ? slab_b_float(g, ldb, tb, n0, k0, n, k, rb) : slab_b(b, ldb, tb, n0, k0, n, k, rb))
#include "xgemm.h"
#include "columns.h"

#define PLAIN(v, row, col) (v)

// Z = A @ B (bias and activation left to the next step) into float32 scratch.
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, KSLICES)))
void xgemm_pre(int m, int n, int k, __global const real_t* a, int lda, long a_batch, __global const real_t* b, int ldb,
               long b_batch, __global float* z_out, int ldc, long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, 0, b + z * b_batch, ldb, 0, As, Bs, acc, 0, 0);
  z_out += z * c_batch;
  STORE_TILE_AS(z_out, ldc, m, n, PLAIN, float, stv4_float, ST_FLOAT)
}

// G = d_y * act'(Z + bias[col]) in place over Z [rows][n] (every batch entry's rows stacked), and the
// partial sums of G's columns, CHUNK rows a work-item: columns.h's first pass, fused.
__kernel void grad_pre_partial_sums(__global float* restrict g, __global const real_t* restrict d_y,
                                    __global const real_t* restrict bias, int act, int rows, int n,
                                    __global float* restrict partial) {
  const int col = get_global_id(0), chunk = get_global_id(1);
  if (col >= n) return;
  const float b = LD(bias, col);
  const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);
  float s = 0.0f;
  for (long r = r0; r < r1; ++r) {
    const long i = r * n + col;
    const float v = LD(d_y, i) * act_slope(act, g[i] + b);
    g[i] = v;
    s += v;
  }
  partial[(long)chunk * n + col] = s;
}

// C = G @ B^T with G float32 (d_a), and C = A^T @ G (d_b): the matmul entry's parameters less ta and
// tb, one operand float32. Their layouts are literals, which the loads need not test.
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, KSLICES)))
void xgemm_float_a(int m, int n, int k, __global const float* a, int lda, long a_batch, __global const real_t* b, int ldb,
                   long b_batch, __global real_t* c, int ldc, long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, 0, lda, 0, b + z * b_batch, ldb, 1, As, Bs, acc, a + z * a_batch, 1);
  c += z * c_batch;
  STORE_TILE(c, ldc, m, n, PLAIN)
}
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, KSLICES)))
void xgemm_float_b(int m, int n, int k, __global const real_t* a, int lda, long a_batch, __global const float* b, int ldb,
                   long b_batch, __global real_t* c, int ldc, long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, 1, 0, ldb, 0, As, Bs, acc, b + z * b_batch, 2);
  c += z * c_batch;
  STORE_TILE(c, ldc, m, n, PLAIN)
}
