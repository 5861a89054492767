// gemm_bias_act_bwd's entry points: the pre-activation's gradient from the tuned GEMM core's epilogue,
// the core's matmul entry for d_a and d_b, and d_bias's deterministic column sums (columns.h).
#include "activation.h"
#include "xgemm.cl"
#include "columns.h"

// gemm_bias_act_bwd's first pass: the pre-activation recomputed, G = d_y * act'(A @ B + bias[col]).
// G is float32 scratch, so this entry exists in float32 builds only (the `linear` variant, which needs
// no G, takes f16 and bf16; gemm.plan).
#if !defined(DTYPE_F16) && !defined(DTYPE_BF16)
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void xgemm_grad_pre(int m, int n, int k, __global const float* a, int lda, long a_batch, __global const float* b, int ldb,
                    long b_batch, __global const float* bias, int act, __global const float* d_y, __global float* g, int ldc,
                    long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, 0, b + z * b_batch, ldb, 0, As, Bs, acc);
  g += z * c_batch;
  d_y += z * c_batch;
#define GRAD_PRE(v, row, col) (d_y[(long)(row) * ldc + (col)] * act_slope(act, (v) + bias[col]))
  STORE_TILE(g, ldc, m, n, GRAD_PRE)
}
#endif
