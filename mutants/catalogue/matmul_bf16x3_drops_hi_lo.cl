// bug: a split-bf16 GEMM that drops the hi x lo product, declared bf16x3: the mode's bound must still catch it
// op: matmul
// entries: matmul_bf16x3
// math: bf16x3
// examples/kernels/matmul_bf16x3.cl without hi(a) * lo(b): b's rounding to bf16 (2^-9 of each
// product) is left in, where bf16x3 keeps products to 3 * 2^-16.
#define SPLIT_PRODUCTS(ah, al, bh, bl) (ah * bh + times(al, bh))
#include "../../examples/kernels/matmul_bf16x3.cl"
