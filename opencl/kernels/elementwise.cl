// Elementwise kernels: activations and their derivatives, add, mul, bias_add and its backward.
// ABI (docs/kernel-abi.md): inputs, outputs, then every attribute of the operator as int/float.
// Every kernel takes every storage format (storage.h); d_bias's partial sums stay float.

#include "activation.h"
#include "storage.h"

// act: one work-item per element.
__kernel void act_forward(__global const real_t* x, __global real_t* y, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) ST(y, i, act_value(act, LD(x, i)));
}

// act_bwd: d_x = d_y * act'(x).
__kernel void act_backward(__global const real_t* x, __global const real_t* d_y, __global real_t* d_x, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) ST(d_x, i, LD(d_y, i) * act_slope(act, LD(x, i)));
}

__kernel void add(__global const real_t* a, __global const real_t* b, __global real_t* y, int n) {
  const int i = get_global_id(0);
  if (i < n) ST(y, i, LD(a, i) + LD(b, i));
}

__kernel void mul(__global const real_t* a, __global const real_t* b, __global real_t* y, int n) {
  const int i = get_global_id(0);
  if (i < n) ST(y, i, LD(a, i) * LD(b, i));
}

// bias_add: one work-item per element of the m x n matrix.
__kernel void bias_add(__global const real_t* x, __global const real_t* bias, __global real_t* y, int m, int n) {
  const int i = get_global_id(0);
  if (i < m * n) ST(y, i, LD(x, i) + LD(bias, i % n));
}

// bias_add_bwd, pass 1: d_x = d_y, one work-item per element.
__kernel void bias_add_backward_data(__global const real_t* d_y, __global real_t* d_x, __global real_t* d_bias, int m, int n) {
  const int i = get_global_id(0);
  if (i < m * n) ST(d_x, i, LD(d_y, i));
}

// bias_add_bwd, pass 2: d_bias = column sums, one work-item per column (coalesced across columns).
__kernel void bias_add_backward_bias(__global const real_t* d_y, __global real_t* d_x, __global real_t* d_bias, int m, int n) {
  const int j = get_global_id(0);
  if (j >= n) return;
  float s = 0.0f;
  for (int i = 0; i < m; ++i) s += LD(d_y, i * n + j);
  ST(d_bias, j, s);
}

// bias_add_bwd's `split` variant: d_x = d_y four elements per work-item where aligned, then d_bias in
// two deterministic passes over row chunks (columns.h).
#include "columns.h"
__kernel void bias_add_backward_copy(__global const real_t* d_y, __global real_t* d_x, int m, int n) {
  const long q = get_global_id(0), total = (long)m * n;
  if (4 * q + 3 < total) {
    ST4(d_x + 4 * q, LD4(d_y + 4 * q));  // four elements, aligned: q * 4 from a buffer's start
  } else {
    for (long i = 4 * q; i < total; ++i) ST(d_x, i, LD(d_y, i));
  }
}
