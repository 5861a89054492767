// bug: an f16 GEMM that keeps its running sum in half precision instead of float32
// op: matmul
// plan: matmul_f16_accumulates_in_half.plan
// One output per work-item, operands read as f16 and widened; but the accumulator is rounded to f16
// after every multiply-add (what `half acc` does on a device with cl_khr_fp16). Each partial sum loses
// up to 2^-11 of its size: k terms lose about k * 2^-11, where float32 accumulation and one final
// rounding allow 2^-11 plus k * 2^-24.
#include "storage.h"

// x rounded to f16's 11 significant bits, to nearest even (range ignored: the sums stay small).
float round_to_half_precision(float x) {
  if (x == 0.0f || !isfinite(x)) return x;
  int e;
  frexp(x, &e);
  return ldexp(rint(ldexp(x, 11 - e)), e - 11);
}

__kernel void matmul_half_acc(__global const real_t* a, __global const real_t* b, __global real_t* y, int batch, int m, int k, int n,
                              int ta, int tb) {
  const int col = get_global_id(0), row = get_global_id(1);
  const long z = get_global_id(2);
  if (row >= m || col >= n) return;
  __global const real_t* az = a + z * m * k;
  __global const real_t* bz = b + z * k * n;
  float acc = 0.0f;
  for (int e = 0; e < k; ++e) {
    const float av = LD(az, ta ? (long)e * m + row : (long)row * k + e), bv = LD(bz, tb ? (long)col * k + e : (long)e * n + col);
    acc = round_to_half_precision(fma(av, bv, acc));
  }
  ST(y, z * m * n + (long)row * n + col, acc);
}
