// GEMM kernels. ABI (docs/kernel-abi.md): inputs, outputs, scratch, then every attribute
// (matmul: batch, m, k, n, ta, tb; gemm_bias_act: batch, m, k, n, act, bshared).
#include "activation.h"

#ifndef TILE  // the plan (gemm.plan) defines it; this default serves files that include this one
#define TILE 16
#endif

// One element of C = A (rows x depth) @ B (depth x cols), A(i, e) at a[i * a_rs + e * a_cs] and
// B(e, j) at b[e * b_rs + j * b_cs]: 16x16 work-groups, the depth walked in 16-wide slabs staged in
// local memory. Padding cells of a slab are 0 on both sides, so they add 0 * 0 (never 0 * Inf).
// Work-item (x, y) of group (gx, gy) computes C(gy*16 + y, gx*16 + x); all must call (barriers).
float tile_gemm(__global const float* a, long a_rs, long a_cs, __global const float* b, long b_rs, long b_cs, int rows,
                long depth, int cols, __local float* at, __local float* bt) {
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int col = get_group_id(0) * TILE + lx, row = get_group_id(1) * TILE + ly;
  float acc = 0.0f;
  for (long t = 0; t < depth; t += TILE) {
    at[ly * TILE + lx] = (row < rows && t + lx < depth) ? a[row * a_rs + (t + lx) * a_cs] : 0.0f;
    bt[ly * TILE + lx] = (t + ly < depth && col < cols) ? b[(t + ly) * b_rs + col * b_cs] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int e = 0; e < TILE; ++e) acc += at[ly * TILE + e] * bt[e * TILE + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return acc;
}

// matmul: y[b] = op(a[b]) @ op(b[b]). Global size: (ceil(n/16)*16, ceil(m/16)*16, max(batch, 1)).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul(__global const float* a, __global const float* b, __global float* y, int batch, int m, int k, int n,
            int ta, int tb) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  const float acc = tile_gemm(a + bi * m * k, ta ? 1 : k, ta ? m : 1, b + bi * k * n, tb ? 1 : n, tb ? k : 1, m, k, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < m && col < n) y[bi * m * n + (long)row * n + col] = acc;
}

// Offset of B for batch entry bi: B is shared when there is no batch or bshared = 1.
long b_offset(long bi, int batch, int bshared, int k, int n) { return (batch == 0 || bshared) ? 0 : bi * k * n; }

// gemm_bias_act: y = act(a @ b + bias). Global size: (ceil(n/16)*16, ceil(m/16)*16, max(batch, 1)).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_bias_act_forward(__global const float* a, __global const float* b, __global const float* bias,
                           __global float* y, int batch, int m, int k, int n, int act, int bshared) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  const float acc = tile_gemm(a + bi * m * k, k, 1, b + b_offset(bi, batch, bshared, k, n), n, 1, m, k, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < m && col < n) y[bi * m * n + (long)row * n + col] = act_value(act, acc + bias[col]);
}

// gemm_bias_act_bwd in the seed's four passes, sharing the scratch grad_pre[max(batch,1) * m * n].
// Non-finite derivatives are kept (the seed zeroed them: against the NaN policy).
#define GEMM_BWD_ARGS                                                                                        \
  __global const float *a, __global const float *b, __global const float *bias, __global const float *d_y, \
      __global float *d_a, __global float *d_b, __global float *d_bias, __global float *grad_pre, int batch, int m, \
      int k, int n, int act, int bshared

// Pass 1: grad_pre = d_y * act'(a @ b + bias). Global size as the forward.
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_bias_act_grad_pre(GEMM_BWD_ARGS) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  const float acc = tile_gemm(a + bi * m * k, k, 1, b + b_offset(bi, batch, bshared, k, n), n, 1, m, k, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  const long o = bi * m * n + (long)row * n + col;
  if (row < m && col < n) grad_pre[o] = d_y[o] * act_slope(act, acc + bias[col]);
}

// Pass 2: d_a[b] = grad_pre[b] @ b[b]^T. Global size: (ceil(k/16)*16, ceil(m/16)*16, max(batch, 1)).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_bias_act_grad_a(GEMM_BWD_ARGS) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const long bi = get_group_id(2);
  const float acc = tile_gemm(grad_pre + bi * m * n, n, 1, b + b_offset(bi, batch, bshared, k, n), 1, n, m, n, k, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < m && col < k) d_a[bi * m * k + (long)row * k + col] = acc;
}

// Pass 3: d_b[b] = a[b]^T @ grad_pre[b]; with B shared, one product over the stacked batch
// (depth batch * m), which is the sum over the batch. Global size: (ceil(n/16)*16, ceil(k/16)*16,
// shared ? 1 : batch).
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void gemm_bias_act_grad_b(GEMM_BWD_ARGS) {
  __local float at[TILE * TILE], bt[TILE * TILE];
  const int shared = batch == 0 || bshared;
  const long bi = get_group_id(2), depth = shared ? (long)max(batch, 1) * m : m;
  const long a_off = shared ? 0 : bi * m * k, g_off = shared ? 0 : bi * m * n;
  const float acc = tile_gemm(a + a_off, 1, k, grad_pre + g_off, n, 1, k, depth, n, at, bt);
  const int col = get_global_id(0), row = get_global_id(1);
  if (row < k && col < n) d_b[(shared ? 0 : bi * k * n) + (long)row * n + col] = acc;
}

// Pass 4: d_bias = column sums of grad_pre over every batch entry and row: one work-item per column.
__kernel void gemm_bias_act_grad_bias(GEMM_BWD_ARGS) {
  const int col = get_global_id(0);
  if (col >= n) return;
  float acc = 0.0f;
  for (long r = 0; r < (long)max(batch, 1) * m; ++r) acc += grad_pre[r * n + col];
  d_bias[col] = acc;
}
