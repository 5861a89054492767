// gemm_bias_act's entry point of the tuned GEMM core (xgemm.h): the bias and the activation in the
// epilogue.
#include "activation.h"
#include "xgemm.h"

// gemm_bias_act: C = act(A @ B + bias[col]).
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void xgemm_bias_act(int m, int n, int k, __global const real_t* a, int lda, long a_batch, __global const real_t* b, int ldb,
                    long b_batch, __global const real_t* bias, int act, __global real_t* c, int ldc, long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, 0, b + z * b_batch, ldb, 0, As, Bs, acc);
  c += z * c_batch;
#define BIAS_ACT(v, row, col) EPILOGUE_ACT_VALUE(act, (v) + LD(bias, col))
#if ACT_CALL
  // With the activation called (activation.h), act = none calls nothing: 0.886 ms against 0.936
  // through the call on the H100. On PoCL this split is slower than one epilogue for all.
#define BIAS(v, row, col) ((v) + LD(bias, col))
  if (act == 0) {
    STORE_TILE(c, ldc, m, n, BIAS)
  } else {
    STORE_TILE(c, ldc, m, n, BIAS_ACT)
  }
#else
  STORE_TILE(c, ldc, m, n, BIAS_ACT)
#endif
}
