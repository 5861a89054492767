// gemm_bias_act's entry point of the tensor-core GEMM core (xgemm_mma.h): C = act(A @ B + bias[col]) in
// f16 or bf16, the bias and the activation in the epilogue. The same arguments as xgemm_bias_act.cl's.
#include "activation.h"
#include "xgemm_mma.h"

// Global size (cdiv(n, NWG) * WGS, cdiv(m, MWG), batches), local (WGS, 1, 1).
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_mma_bias_act(int m, int n, int k, __global const real_t* a, int lda, long a_batch, __global const real_t* b, int ldb,
                        long b_batch, __global const real_t* bias, int act, __global real_t* c, int ldc, long c_batch) {
  XGEMM_MMA_LOCALS
  const long z = get_group_id(2);
  xgemm_mma_accumulate(m, n, k, RAW(a) + z * a_batch, lda, 0, lda % 8 == 0 && a_batch % 8 == 0, RAW(b) + z * b_batch, ldb, 0,
                       ldb % 8 == 0 && b_batch % 8 == 0, as4, bs4, acc, emu);
// The activation's code a constant in each of ACT_CONSTANT's copies (activation.h): with it a variable,
// each of a work-item's 64 values went through act_value's switch in turn (4096 x 1024 x 4096 gelu_tanh
// bf16 at 128 x 128 x 32: 0.188 ms, 0.118 as now; H100, 2026-11-28).
#define BIAS_ACT(v, row, col) EPILOGUE_ACT_VALUE(ACT_KIND, (v) + LD(bias, col))
  ACT_CONSTANT(act, STORE_FRAGMENTS(c + z * c_batch, ldc, c_batch, m, n, BIAS_ACT))
}
