// gemm_bias_act_bwd's `linear` variant (act = none, so G = d_y): the tuned GEMM core's matmul entry
// for d_a and d_b, and d_bias's deterministic column sums (columns.h).
#include "xgemm.cl"
#include "columns.h"
