// matmul's entry point of the tensor-core GEMM core (xgemm_mma.h): C = op(A) @ op(B) in f16 or bf16.
// The same arguments as xgemm.cl's entry.
#include "xgemm_mma.h"

// Global size (cdiv(n, NWG) * WGS, cdiv(m, MWG), batches), local (WGS, 1, 1).
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_mma(int m, int n, int k, __global const real_t* a, int lda, int ta, long a_batch, __global const real_t* b, int ldb,
               int tb, long b_batch, __global real_t* c, int ldc, long c_batch) {
  XGEMM_MMA_LOCALS
  const long z = get_group_id(2);
  xgemm_mma_accumulate(m, n, k, RAW(a) + z * a_batch, lda, ta, lda % 8 == 0 && a_batch % 8 == 0, RAW(b) + z * b_batch, ldb, tb,
                       ldb % 8 == 0 && b_batch % 8 == 0, as4, bs4, acc, emu);
#define PLAIN(v, row, col) (v)
  STORE_FRAGMENTS(c + z * c_batch, ldc, c_batch, m, n, PLAIN)
}
