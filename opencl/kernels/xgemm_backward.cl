// gemm_bias_act_bwd's `xgemm` variant: the pre-activation's gradient G from the tuned GEMM core's
// epilogue, then d_a = G @ B^T, d_b = A^T @ G and d_bias's deterministic column sums (columns.h).
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

// G = d_y * act'(A @ B + bias[col]), the pre-activation recomputed, into float32.
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void xgemm_grad_pre(int m, int n, int k, __global const real_t* a, int lda, long a_batch, __global const real_t* b, int ldb,
                    long b_batch, __global const real_t* bias, int act, __global const real_t* d_y, __global float* g_out, int ldc,
                    long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, 0, b + z * b_batch, ldb, 0, As, Bs, acc, 0, 0);
  g_out += z * c_batch;
  d_y += z * c_batch;
#define GRAD_PRE(v, row, col) (LD(d_y, (long)(row) * ldc + (col)) * EPILOGUE_ACT_SLOPE(act, (v) + LD(bias, col)))
  STORE_TILE_AS(g_out, ldc, m, n, GRAD_PRE, float, ST4_FLOAT, ST_FLOAT)
}

// C = G @ B^T with G float32 (d_a), and C = A^T @ G (d_b): the matmul entry's parameters less ta and
// tb, one operand float32. Their layouts are literals, which the loads need not test.
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void xgemm_float_a(int m, int n, int k, __global const float* a, int lda, long a_batch, __global const real_t* b, int ldb,
                   long b_batch, __global real_t* c, int ldc, long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, 0, lda, 0, b + z * b_batch, ldb, 1, As, Bs, acc, a + z * a_batch, 1);
  c += z * c_batch;
#define PLAIN(v, row, col) (v)
  STORE_TILE(c, ldc, m, n, PLAIN)
}
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void xgemm_float_b(int m, int n, int k, __global const real_t* a, int lda, long a_batch, __global const float* b, int ldb,
                   long b_batch, __global real_t* c, int ldc, long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, 1, 0, ldb, 0, As, Bs, acc, b + z * b_batch, 2);
  c += z * c_batch;
  STORE_TILE(c, ldc, m, n, PLAIN)
}
