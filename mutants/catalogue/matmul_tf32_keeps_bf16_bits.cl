// bug: a "TF32" GEMM that keeps only bf16's 7 mantissa bits of each input, declared tf32: the mode's bound must still catch it
// op: matmul
// entries: matmul_tf32
// math: tf32
// examples/kernels/matmul_tf32.cl with 7 explicit bits where TF32 has 10: each input's rounding is 8x
// TF32's, beyond what the tf32 mode's bound allows on short sums.
#define TF32_BITS 7
#include "../../examples/kernels/matmul_tf32.cl"
