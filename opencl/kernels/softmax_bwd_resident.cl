// softmax_bwd's and log_softmax_bwd's `resident` variants: a long row of d_y held in registers. `wide`
// (softmax.cl) reads d_y for the row's sum and again for the outputs, one value a work-item at a time:
// log_softmax_bwd moves 4/3 of its roofline's bytes (66.8% of the H200's copy bandwidth over 2048 x
// 32000). Here a work-item loads its ROW_QUADS quads of d_y (quad lid + u * ROW_WG) once, all
// before any is used, and the output pass reads y in groups of QUAD_UNROLL quads before it writes any:
// log_softmax_bwd reads each input once (its roofline), softmax_bwd reads y twice (the sum needs y * d_y,
// and a row of both would not fit the registers). Quads past the registers (rows longer than 4 *
// ROW_QUADS * ROW_WG values) are read in both passes. Rows whose y, d_y and d_x do not sit at the same
// offset from a quad boundary take `wide`'s path. Sums in one fixed order: the same bits every run.
#include "softmax_quads.cl"

// d_x from d_y's values g and y's values v, and the row's sum (of d_y, or of d_y * y for softmax).
// softmax: y * d_y - y * dot (softmax.cl's form: neither product overflows where d_y - dot would);
// log_softmax: d_y - exp(y) * total.
#define BWD_OUT(softmax, g, v, s) ((softmax) ? (v) * (g) - (v) * (s) : (g) - ROW_EXP(v) * (s))

// One row: `softmax` is a constant at each call, so each kernel keeps one of the two forms.
inline void backward_row_resident(__global const real_t* y, __global const real_t* d_y, __global real_t* d_x, int n,
                                  __local float* part, const bool softmax) {
  const int lid = get_local_id(0);
  const ulong off = (ulong)d_y % QUAD_BYTES;
  if ((ulong)y % QUAD_BYTES != off || (ulong)d_x % QUAD_BYTES != off) {  // the same for every work-item
    float mine = 0.0f;
    for (int j = lid; j < n; j += ROW_WG) mine += softmax ? LD(d_y, j) * LD(y, j) : LD(d_y, j);
    const float s = workgroup_sum(mine, part);
    for (int j = lid; j < n; j += ROW_WG) ST(d_x, j, BWD_OUT(softmax, LD(d_y, j), LD(y, j), s));
    return;
  }
  const int head = head_of(d_y, n), quads = (n - head) / 4, tail = head + 4 * quads;
  __global const real_t *gq = d_y + head, *yq = y + head;
  __global real_t* xq = d_x + head;
  // pass 1: d_y's quads into registers (y's read alongside for softmax), and this work-item's sum
  float4 g[ROW_QUADS];
#pragma unroll
  for (int u = 0; u < ROW_QUADS; ++u) g[u] = lid + u * ROW_WG < quads ? LD4(gq + 4 * (lid + u * ROW_WG)) : (float4)(0.0f);
  const float2 ge = (float2)(lid < head ? LD(d_y, lid) : 0.0f, tail + lid < n ? LD(d_y, tail + lid) : 0.0f);
  const float2 ye = (float2)(lid < head ? LD(y, lid) : 0.0f, tail + lid < n ? LD(y, tail + lid) : 0.0f);
  float mine = softmax ? ge.x * ye.x + ge.y * ye.y : ge.x + ge.y;
#pragma unroll
  for (int u = 0; u < ROW_QUADS; ++u) {
    const float4 t = softmax ? (lid + u * ROW_WG < quads ? LD4(yq + 4 * (lid + u * ROW_WG)) : (float4)(0.0f)) * g[u] : g[u];
    mine += (t.x + t.y) + (t.z + t.w);
  }
  int q = lid + ROW_QUADS * ROW_WG;  // past the registers: QUAD_UNROLL quads of each input in flight
  for (; q + (QUAD_UNROLL - 1) * ROW_WG < quads; q += QUAD_UNROLL * ROW_WG) {
    float4 t[QUAD_UNROLL];
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) t[u] = softmax ? LD4(yq + 4 * (q + u * ROW_WG)) * LD4(gq + 4 * (q + u * ROW_WG)) : LD4(gq + 4 * (q + u * ROW_WG));
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) mine += (t[u].x + t[u].y) + (t[u].z + t[u].w);
  }
  for (; q < quads; q += ROW_WG) {
    const float4 t = softmax ? LD4(yq + 4 * q) * LD4(gq + 4 * q) : LD4(gq + 4 * q);
    mine += (t.x + t.y) + (t.z + t.w);
  }
  const float s = workgroup_sum(mine, part);
  // pass 2: y's quads QUAD_UNROLL at a time, all loaded before any output is stored (d_x may alias y)
  if (lid < head) ST(d_x, lid, BWD_OUT(softmax, ge.x, ye.x, s));
  if (tail + lid < n) ST(d_x, tail + lid, BWD_OUT(softmax, ge.y, ye.y, s));
#pragma unroll
  for (int u0 = 0; u0 < ROW_QUADS; u0 += QUAD_UNROLL) {
    float4 v[QUAD_UNROLL];
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) {
      const int q = lid + (u0 + u) * ROW_WG;
      v[u] = u0 + u < ROW_QUADS && q < quads ? LD4(yq + 4 * q) : (float4)(0.0f);
    }
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) {
      const int q = lid + (u0 + u) * ROW_WG;
      if (u0 + u < ROW_QUADS && q < quads) ST4(xq + 4 * q, BWD_OUT(softmax, g[u0 + u], v[u], s));
    }
  }
  for (q = lid + ROW_QUADS * ROW_WG; q + (QUAD_UNROLL - 1) * ROW_WG < quads; q += QUAD_UNROLL * ROW_WG) {
    float4 gv[QUAD_UNROLL], v[QUAD_UNROLL];
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) gv[u] = LD4(gq + 4 * (q + u * ROW_WG)), v[u] = LD4(yq + 4 * (q + u * ROW_WG));
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) ST4(xq + 4 * (q + u * ROW_WG), BWD_OUT(softmax, gv[u], v[u], s));
  }
  for (; q < quads; q += ROW_WG) ST4(xq + 4 * q, BWD_OUT(softmax, LD4(gq + 4 * q), LD4(yq + 4 * q), s));
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_backward_resident(__global const real_t* y, __global const real_t* d_y, __global real_t* d_x, int m, int n) {
  __local float part[ROW_WG];
  const long base = (long)get_group_id(0) * n;
  backward_row_resident(y + base, d_y + base, d_x + base, n, part, true);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_softmax_backward_resident(__global const real_t* y, __global const real_t* d_y, __global real_t* d_x, int m, int n) {
  __local float part[ROW_WG];
  const long base = (long)get_group_id(0) * n;
  backward_row_resident(y + base, d_y + base, d_x + base, n, part, false);
}
