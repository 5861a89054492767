// gemm_bias_act_bwd's entry points: the pre-activation's gradient from the tuned GEMM core's epilogue,
// the core's matmul entry for d_a and d_b, and d_bias's deterministic column sums.
#include "activation.h"
#include "xgemm.cl"

// gemm_bias_act_bwd's first pass: the pre-activation recomputed, G = d_y * act'(A @ B + bias[col]).
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

// Column sums in two deterministic passes (no atomics: the same inputs give the same bits): partial
// sums of `rows` rows of x [rows][n] in chunks of CHUNK rows, partial[chunk][col]; then the sums of
// the partials, one work-item per column.
#ifndef CHUNK
#define CHUNK 64
#endif
__kernel void column_partial_sums(__global const float* x, int rows, int n, __global float* partial) {
  const int col = get_global_id(0), chunk = get_global_id(1);
  if (col >= n) return;
  const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);
  float s = 0.0f;
  for (long r = r0; r < r1; ++r) s += x[r * n + col];
  partial[(long)chunk * n + col] = s;
}

__kernel void column_sums_finish(__global const float* partial, int chunks, int n, __global float* out) {
  const int col = get_global_id(0);
  if (col >= n) return;
  float s = 0.0f;
  for (int c = 0; c < chunks; ++c) s += partial[(long)c * n + col];
  out[col] = s;
}
