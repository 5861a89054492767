// Column sums of a [rows][n] matrix in two deterministic passes, for d_bias (gemm_bias_act_bwd,
// bias_add_bwd): included by the family files whose plans launch them.
#ifndef COLUMNS_H
#define COLUMNS_H
#include "storage.h"  // x and out in the build's storage format, the partial sums in float

// Column sums in two deterministic passes (no atomics: the same inputs give the same bits): partial
// sums of `rows` rows of x [rows][n] in chunks of CHUNK rows, partial[chunk][col]; then the sums of
// the partials, one work-item per column.
#ifndef CHUNK
#define CHUNK 64
#endif
// x in the storage format (column_partial_sums) or in float32 scratch (column_partial_sums_float).
#define COLUMN_PARTIAL_SUMS(NAME, T, LD_)                                                         \
  __kernel void NAME(__global const T* x, int rows, int n, __global float* partial) {             \
    const int col = get_global_id(0), chunk = get_global_id(1);                                   \
    if (col >= n) return;                                                                         \
    const long r0 = (long)chunk * CHUNK, r1 = min(r0 + CHUNK, (long)rows);                        \
    float s = 0.0f;                                                                               \
    for (long r = r0; r < r1; ++r) s += LD_(x, r * n + col);                                      \
    partial[(long)chunk * n + col] = s;                                                           \
  }
COLUMN_PARTIAL_SUMS(column_partial_sums, real_t, LD)
COLUMN_PARTIAL_SUMS(column_partial_sums_float, float, LD_FLOAT)

__kernel void column_sums_finish(__global const float* partial, int chunks, int n, __global real_t* out) {
  const int col = get_global_id(0);
  if (col >= n) return;
  float s = 0.0f;
  for (int c = 0; c < chunks; ++c) s += partial[(long)c * n + col];
  ST(out, col, s);
}

#endif  // COLUMNS_H
