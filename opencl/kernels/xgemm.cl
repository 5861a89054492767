// matmul's entry point of the tuned GEMM core (xgemm.h).
#include "xgemm.h"

// matmul: C = op(A) @ op(B). Global size (cdiv(n, NWG) * NDIMC, cdiv(m, MWG) * MDIMC, batches * KSLICES).
__kernel __attribute__((reqd_work_group_size(NDIMC, MDIMC, KSLICES)))
void xgemm(int m, int n, int k, __global const real_t* a, int lda, int ta, long a_batch, __global const real_t* b, int ldb, int tb,
           long b_batch, __global real_t* c, int ldc, long c_batch) {
  XGEMM_LOCALS
  a += z * a_batch;
  b += z * b_batch;
#if SPLIT_LAYOUTS
  // The layouts as literals: a copy of the main loop for each, faster than one loop that tests ta and
  // tb as it loads: 0.873 against 0.918 ms at 4096x1024x4096 on the H100, 0.515 against 0.570 with
  // ta. A tuned define: the four copies take PoCL three times as long to build (7 -> 21 s for a
  // 12-case check), for nothing there.
  if (!ta && !tb) xgemm_accumulate(m, n, k, a, lda, 0, b, ldb, 0, As, Bs, acc);
  else if (!ta) xgemm_accumulate(m, n, k, a, lda, 0, b, ldb, 1, As, Bs, acc);
  else if (!tb) xgemm_accumulate(m, n, k, a, lda, 1, b, ldb, 0, As, Bs, acc);
  else xgemm_accumulate(m, n, k, a, lda, 1, b, ldb, 1, As, Bs, acc);
#else
  xgemm_accumulate(m, n, k, a, lda, ta, b, ldb, tb, As, Bs, acc);
#endif
  c += z * c_batch;
#define PLAIN(v, row, col) (v)
  STORE_TILE(c, ldc, m, n, PLAIN)
}
