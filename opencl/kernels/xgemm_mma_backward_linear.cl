// gemm_bias_act_bwd's `mma_linear` variant (act = none, so G = d_y, already in the storage format): the
// tensor-core GEMM's matmul entry (xgemm_mma.cl) for d_a = G @ B^T and d_b = A^T @ G, and d_bias's
// deterministic column sums (columns.h). With an activation G is a float32 intermediate, which the
// 16-bit instruction does not take without rounding it: those problems stay on `xgemm`.
#include "xgemm_mma.cl"
#include "columns.h"
