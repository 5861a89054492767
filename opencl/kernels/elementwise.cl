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

// ---- the `vec` variants: four elements a load ------------------------------------------------------
// Work-item t of work-group g takes the quads (four consecutive elements, 16-byte aligned in float32:
// 4 q from the buffer's start) q = g * WG * QUADS + t + k * WG, k < QUADS: each load and store is a
// float4 beside the next work-item's. The last, partial quad goes element by element. Global size
// WG * cdiv(cdiv(elements, 4), WG * QUADS).
#ifndef WG  // the plan (elementwise.plan) defines these; the defaults serve a build without it
#define WG 256
#endif
#ifndef QUADS
#define QUADS 2
#endif
#define FOR_EACH_QUAD(total, QUAD, ONE)                                                        \
  _Pragma("unroll") for (int k = 0; k < QUADS; ++k) {                                          \
    const long q = (long)get_group_id(0) * WG * QUADS + get_local_id(0) + (long)k * WG;         \
    if (4 * q + 3 < (total)) {                                                                 \
      const long i = 4 * q;                                                                    \
      QUAD;                                                                                    \
    } else {                                                                                   \
      for (long i = 4 * q; i < (total); ++i) ONE;                                              \
    }                                                                                          \
  }

float4 act4(int act, float4 v) { return (float4)(act_value(act, v.x), act_value(act, v.y), act_value(act, v.z), act_value(act, v.w)); }
float4 slope4(int act, float4 v) { return (float4)(act_slope(act, v.x), act_slope(act, v.y), act_slope(act, v.z), act_slope(act, v.w)); }

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void act_forward4(__global const real_t* x, __global real_t* y, int n, int act) {
  FOR_EACH_QUAD(n, ST4(y + i, act4(act, LD4(x + i))), ST(y, i, act_value(act, LD(x, i))))
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void act_backward4(__global const real_t* x, __global const real_t* d_y, __global real_t* d_x, int n, int act) {
  FOR_EACH_QUAD(n, ST4(d_x + i, LD4(d_y + i) * slope4(act, LD4(x + i))), ST(d_x, i, LD(d_y, i) * act_slope(act, LD(x, i))))
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void add4(__global const real_t* a, __global const real_t* b, __global real_t* y, int n) {
  FOR_EACH_QUAD(n, ST4(y + i, LD4(a + i) + LD4(b + i)), ST(y, i, LD(a, i) + LD(b, i)))
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void mul4(__global const real_t* a, __global const real_t* b, __global real_t* y, int n) {
  FOR_EACH_QUAD(n, ST4(y + i, LD4(a + i) * LD4(b + i)), ST(y, i, LD(a, i) * LD(b, i)))
}

// bias_add: the four elements of a quad may straddle rows (n % 4 != 0): the first finds its column
// (one 64-bit remainder, a long routine on GPUs), the others step from it, wrapping at n.
int next_column(int col, int n) { return col + 1 == n ? 0 : col + 1; }
float4 bias4(__global const real_t* bias, long i, int n) {
  const int c0 = i % n, c1 = next_column(c0, n), c2 = next_column(c1, n), c3 = next_column(c2, n);
  return (float4)(LD(bias, c0), LD(bias, c1), LD(bias, c2), LD(bias, c3));
}
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void bias_add4(__global const real_t* x, __global const real_t* bias, __global real_t* y, int m, int n) {
  FOR_EACH_QUAD((long)m * n, ST4(y + i, LD4(x + i) + bias4(bias, i, n)), ST(y, i, LD(x, i) + LD(bias, i % n)))
}

// bias_add_bwd's `fused` variant: one launch reads d_y once. A work-group takes BWD_COLS columns
// (BWD_COLS / 4 work-items across, four columns each: a float4 where n % 4 == 0) of BWD_ROWS rows, BWD_LANES row
// lanes deep: it copies them to d_x and writes their column sums to partial[chunk][col]. Then it counts
// itself done on its columns' counter; the last of the chunks adds up the partials in chunk order (the
// same bits every run, no float atomics), writes d_bias and sets the counter back to zero (the plan's
// `counters`, docs/kernel-abi.md). The split variant reads d_y twice and launches three times.
#ifndef BWD_ROWS
#define BWD_ROWS 64
#endif
#ifndef BWD_LANES
#define BWD_LANES 4
#endif
#ifndef BWD_COLS
#define BWD_COLS 256
#endif
#define BWD_ACROSS (BWD_COLS / 4)  // work-items across
__kernel __attribute__((reqd_work_group_size(BWD_ACROSS, BWD_LANES, 1)))
void bias_add_backward_fused(__global const real_t* d_y, __global real_t* d_x, __global real_t* d_bias, __global float* partial,
                             __global uint* done, int m, int n) {
  __local float4 part[BWD_LANES][BWD_ACROSS];
  __local int last;
  const int lx = get_local_id(0), ly = get_local_id(1), block = get_group_id(0), chunk = get_group_id(1);
  const int chunks = get_num_groups(1);
  const long c0 = (long)block * 4 * BWD_ACROSS + 4 * lx;
  const long r0 = (long)chunk * BWD_ROWS, r1 = min(r0 + BWD_ROWS, (long)m);
  float4 s = (float4)(0.0f);
  if ((n & 3) == 0 && c0 + 3 < n) {  // rows of whole quads: c0 is 16-byte aligned in every row
    for (long r = r0 + ly; r < r1; r += BWD_LANES) {
      const float4 v = LD4(d_y + r * n + c0);
      ST4(d_x + r * n + c0, v);
      s += v;
    }
  } else if (c0 < n) {
    for (long r = r0 + ly; r < r1; r += BWD_LANES) {
      const long i = r * n + c0;
      float v = LD(d_y, i);
      ST(d_x, i, v), s.x += v;
      if (c0 + 1 < n) v = LD(d_y, i + 1), ST(d_x, i + 1, v), s.y += v;
      if (c0 + 2 < n) v = LD(d_y, i + 2), ST(d_x, i + 2, v), s.z += v;
      if (c0 + 3 < n) v = LD(d_y, i + 3), ST(d_x, i + 3, v), s.w += v;
    }
  }
  part[ly][lx] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (ly == 0) {
    float4 t = part[0][lx];
    for (int l = 1; l < BWD_LANES; ++l) t += part[l][lx];
    __global float* out = partial + (long)chunk * n + c0;
    if (c0 < n) out[0] = t.x;
    if (c0 + 1 < n) out[1] = t.y;
    if (c0 + 2 < n) out[2] = t.z;
    if (c0 + 3 < n) out[3] = t.w;
    mem_fence(CLK_GLOBAL_MEM_FENCE);  // this work-item's partials are visible before the count says so
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (lx == 0 && ly == 0) last = atomic_inc(&done[block]) == (uint)(chunks - 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!last) return;  // the same for the whole work-group, and no barrier follows
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  for (int j = ly * BWD_ACROSS + lx; j < 4 * BWD_ACROSS; j += BWD_LANES * BWD_ACROSS) {
    const long col = (long)block * 4 * BWD_ACROSS + j;
    if (col >= n) break;
    __global volatile const float* p = partial + col;  // written by other work-groups: not from a cache
    float t = 0.0f;
    for (int c = 0; c < chunks; ++c) t += p[(long)c * n];
    ST(d_bias, col, t);
  }
  if (lx == 0 && ly == 0) done[block] = 0;
}
