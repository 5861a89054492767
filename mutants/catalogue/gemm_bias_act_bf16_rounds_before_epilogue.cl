// bug: an unfused bf16 GEMM + bias + activation: A @ B is stored to the bf16 output, then bias and act are applied to that
// op: gemm_bias_act
// plan: gemm_bias_act_bf16_rounds_before_epilogue.plan
// Two passes over y: the GEMM writes A @ B to y (rounded to bf16), the epilogue reads it back, adds the
// bias, applies act and writes y again. The pre-activation is rounded twice: where the bias cancels
// most of A @ B, or where act flattens it (gelu at negative inputs), the result is off by much more
// than one bf16 rounding of the result.
#include "activation.h"
#include "storage.h"

__kernel void gemm_to_output(__global const real_t* a, __global const real_t* b, __global real_t* y, int batch, int m, int k, int n,
                             int bshared) {
  const int col = get_global_id(0), row = get_global_id(1);
  const long z = get_global_id(2);
  if (row >= m || col >= n) return;
  __global const real_t* az = a + z * m * k;
  __global const real_t* bz = b + (batch == 0 || bshared ? 0 : z * k * n);
  float acc = 0.0f;
  for (int e = 0; e < k; ++e) acc = fma(LD(az, (long)row * k + e), LD(bz, (long)e * n + col), acc);
  ST(y, z * m * n + (long)row * n + col, acc);
}

__kernel void bias_act_in_place(__global const real_t* bias, __global real_t* y, long total, int n, int act) {
  const long i = get_global_id(0);
  if (i < total) ST(y, i, act_value(act, LD(y, i) + LD(bias, i % n)));
}
