// bug: bf16 gemm_bias_act_bwd keeps the pre-activation's gradient G in bf16 between its GEMMs (an intermediate rounded)
// op: gemm_bias_act_bwd
// plan: gemm_bias_act_bwd_bf16_rounds_grad_pre.plan
// Our xgemm variant with G rounded to bf16 as it is stored (what an unfused bf16 autograd does): d_a,
// d_b and d_bias then sum products of rounded values. Where the sums cancel, or where act' is steep,
// they are off by far more than one rounding of each result.
#include "xgemm_backward.cl"

__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void grad_pre_rounded(int m, int n, int k, __global const real_t* a, int lda, long a_batch, __global const real_t* b, int ldb,
                      long b_batch, __global const real_t* bias, int act, __global const real_t* d_y, __global float* g_out, int ldc,
                      long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, 0, b + z * b_batch, ldb, 0, As, Bs, acc, 0, 0);
  g_out += z * c_batch;
  d_y += z * c_batch;
#define GRAD_PRE_BF16(v, row, col) bf16_to_float(float_to_bf16(GRAD_PRE(v, row, col)))
  STORE_TILE_AS(g_out, ldc, m, n, GRAD_PRE_BF16, float, ST4_FLOAT, ST_FLOAT)
}
