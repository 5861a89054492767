// matmul's entry point of the tuned GEMM core (xgemm.h).
#include "xgemm.h"

// matmul: C = op(A) @ op(B). Global size (cdiv(n, NWG) * NDIMC, cdiv(m, MWG) * MDIMC, batches).
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, 1)))
void xgemm(int m, int n, int k, __global const real_t* a, int lda, int ta, long a_batch, __global const real_t* b, int ldb, int tb,
           long b_batch, __global real_t* c, int ldc, long c_batch) {
  XGEMM_LOCALS
  xgemm_accumulate(m, n, k, a + z * a_batch, lda, ta, b + z * b_batch, ldb, tb, As, Bs, acc);
  c += z * c_batch;
#define PLAIN(v, row, col) (v)
  STORE_TILE(c, ldc, m, n, PLAIN)
}
