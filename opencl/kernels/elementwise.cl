// Elementwise kernels: activations and their derivatives, add, mul, bias_add and its backward.
// ABI (docs/kernel-abi.md): inputs, outputs, then every attribute of the operator as int/float.

#include "activation.h"

// act: one work-item per element.
__kernel void act_forward(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) y[i] = act_value(act, x[i]);
}

// act_bwd: d_x = d_y * act'(x).
__kernel void act_backward(__global const float* x, __global const float* d_y, __global float* d_x, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) d_x[i] = d_y[i] * act_slope(act, x[i]);
}

__kernel void add(__global const float* a, __global const float* b, __global float* y, int n) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a[i] + b[i];
}

__kernel void mul(__global const float* a, __global const float* b, __global float* y, int n) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a[i] * b[i];
}

// bias_add: one work-item per element of the m x n matrix.
__kernel void bias_add(__global const float* x, __global const float* bias, __global float* y, int m, int n) {
  const int i = get_global_id(0);
  if (i < m * n) y[i] = x[i] + bias[i % n];
}

// bias_add_bwd, pass 1: d_x = d_y, one work-item per element.
__kernel void bias_add_backward_data(__global const float* d_y, __global float* d_x, __global float* d_bias, int m, int n) {
  const int i = get_global_id(0);
  if (i < m * n) d_x[i] = d_y[i];
}

// bias_add_bwd, pass 2: d_bias = column sums, one work-item per column (coalesced across columns).
__kernel void bias_add_backward_bias(__global const float* d_y, __global float* d_x, __global float* d_bias, int m, int n) {
  const int j = get_global_id(0);
  if (j >= n) return;
  float s = 0.0f;
  for (int i = 0; i < m; ++i) s += d_y[i * n + j];
  d_bias[j] = s;
}

// bias_add_bwd's `split` variant: d_x = d_y four elements per work-item where aligned, then d_bias in
// two deterministic passes over row chunks (columns.h).
#include "columns.h"
__kernel void bias_add_backward_copy(__global const float* d_y, __global float* d_x, int m, int n) {
  const long q = get_global_id(0), total = (long)m * n;
  if (4 * q + 3 < total) {
    ((__global float4*)d_x)[q] = ((__global const float4*)d_y)[q];
  } else {
    for (long i = 4 * q; i < total; ++i) d_x[i] = d_y[i];
  }
}
