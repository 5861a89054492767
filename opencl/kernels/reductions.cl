// Reductions and shape kernels: sum, mean (all, or per row), transpose.
// ABI (docs/kernel-abi.md): inputs, outputs, then every attribute (over: 0 all, 1 row).
#ifndef REDUCE_WG  // the plan (reductions.plan) defines it; this default serves files that include this one
#define REDUCE_WG 256
#endif
#include "workgroup.h"
#include "storage.h"  // x and y in the build's storage format; partial sums in float

// One work-group per row (over = row) or one for everything (over = all): each work-item sums a
// strided slice, then a tree reduction in local memory. NaN and Inf propagate through the sums.
// The mean sums x / len, not x: a sum beyond float's range must not turn a finite mean into Inf.
void reduce_rows(__global const real_t* x, __global real_t* y, int m, int n, int over, int mean,
                 __local float* part) {
  const int lid = get_local_id(0), row = get_group_id(0);
  const long len = over == 0 ? (long)m * n : n;
  const long base = over == 0 ? 0 : (long)row * n;
  const float scale = mean ? 1.0f / (float)len : 1.0f;
  float s = 0.0f;
  for (long j = lid; j < len; j += REDUCE_WG) s += mean ? LD(x, base + j) * scale : LD(x, base + j);
  const float total = workgroup_sum(s, part);
  if (lid == 0) ST(y, row, total);
}

__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void reduce_sum(__global const real_t* x, __global real_t* y, int m, int n, int over) {
  __local float part[REDUCE_WG];
  reduce_rows(x, y, m, n, over, 0, part);
}

__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void reduce_mean(__global const real_t* x, __global real_t* y, int m, int n, int over) {
  __local float part[REDUCE_WG];
  reduce_rows(x, y, m, n, over, 1, part);
}

// transpose: 16x16 tiles through local memory (padded by one column against bank conflicts), so that
// both the reads of x and the writes of y are coalesced. Global size: (ceil(n/16)*16, ceil(m/16)*16).
#ifndef TILE  // the plan (reductions.plan) defines it; this default serves files that include this one
#define TILE 16
#endif
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float tile[TILE][TILE + 1];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int col = get_group_id(0) * TILE + lx, row = get_group_id(1) * TILE + ly;
  if (row < m && col < n) tile[ly][lx] = LD(x, (long)row * n + col);
  barrier(CLK_LOCAL_MEM_FENCE);
  const int out_row = get_group_id(0) * TILE + ly, out_col = get_group_id(1) * TILE + lx;  // y is n x m
  if (out_row < n && out_col < m) ST(y, (long)out_row * m + out_col, tile[lx][ly]);
}

// ---- sum and mean in two deterministic passes (the `split` variant) -----------------------------------
// A segment is a row (over = row) or the whole tensor (over = all). Pass 1: SUM_WG work-items reduce
// each chunk of SUM_CHUNK elements of a segment (float4 loads where aligned) into partial[segment][chunk];
// pass 2: one work-group per segment sums its chunks' partials in a fixed order. No atomics: the same
// inputs give the same bits. The mean sums x / len (a finite mean never overflows on the way).
#ifndef SUM_WG
#define SUM_WG 256
#endif
#ifndef SUM_UNROLL  // quads in flight per work-item in pass 1
#define SUM_UNROLL 1
#endif
#ifndef SUM_CHUNK
#define SUM_CHUNK 8192
#endif

// Pass 1 of `split` and `onepass`: the work-group's sum of chunk get_group_id(0) of segment
// get_group_id(1), the same loads in the same order in both (so both give the same bits).
float chunk_sum(__global const real_t* x, __local float* part, int m, int n, int over, int mean) {
  const long len = over == 0 ? (long)m * n : n, seg = get_group_id(1), chunk = get_group_id(0);
  const long start = (over == 0 ? 0 : seg * n) + chunk * SUM_CHUNK;
  const long count = min((long)SUM_CHUNK, len - chunk * SUM_CHUNK);
  const float scale = mean ? 1.0f / (float)len : 1.0f;
  const int lid = get_local_id(0);
  float s = 0.0f;
  long done = 0;
#define ADD_QUAD(v) (s += mean ? (v).x * scale + (v).y * scale + (v).z * scale + (v).w * scale : (v).x + (v).y + (v).z + (v).w)
  if ((start & 3) == 0) {  // aligned to four elements: vector loads over the chunk's whole quads
    const long quads = count / 4;
    long q = lid;
    // SUM_UNROLL quads loaded before any is added (the same additions in the same order as one at a
    // time: the same bits), so that each work-item keeps several loads in flight.
    for (; q + (SUM_UNROLL - 1) * SUM_WG < quads; q += SUM_UNROLL * SUM_WG) {
      float4 v[SUM_UNROLL];
      _Pragma("unroll") for (int u = 0; u < SUM_UNROLL; ++u) v[u] = LD4(x + start + 4 * (q + u * SUM_WG));
      _Pragma("unroll") for (int u = 0; u < SUM_UNROLL; ++u) ADD_QUAD(v[u]);
    }
    for (; q < quads; q += SUM_WG) ADD_QUAD(LD4(x + start + 4 * q));
    done = quads * 4;
  }
  for (long j = done + lid; j < count; j += SUM_WG) s += mean ? LD(x, start + j) * scale : LD(x, start + j);
  return workgroup_sum(s, part);
}

__kernel __attribute__((reqd_work_group_size(SUM_WG, 1, 1)))
void reduce_partials(__global const real_t* x, __global float* partial, int m, int n, int over, int mean) {
  __local float part[SUM_WG];
  const long len = over == 0 ? (long)m * n : n;
  const long chunks = (len + SUM_CHUNK - 1) / SUM_CHUNK;
  const float total = chunk_sum(x, part, m, n, over, mean);
  if (get_local_id(0) == 0) partial[get_group_id(1) * chunks + get_group_id(0)] = total;
}

__kernel __attribute__((reqd_work_group_size(SUM_WG, 1, 1)))
void reduce_finish(__global const float* partial, __global real_t* y, int m, int n, int over) {
  __local float part[SUM_WG];
  const long len = over == 0 ? (long)m * n : n, seg = get_group_id(0);
  const long chunks = (len + SUM_CHUNK - 1) / SUM_CHUNK;
  float s = 0.0f;
  for (long c = get_local_id(0); c < chunks; c += SUM_WG) s += partial[seg * chunks + c];
  const float total = workgroup_sum(s, part);
  if (get_local_id(0) == 0) ST(y, seg, total);
}

// ---- sum and mean in one launch (the `onepass` variant) ----------------------------------------------
// chunk_sum, as reduce_partials; then each work-group counts itself done on its segment's counter, and
// the segment's last one adds up the partials in reduce_finish's fixed order (the same bits as
// `split`, no float atomics) and sets the counter back to zero for the next launch (the plan's
// `counters` start at zero and must be left there). One launch instead of two: the second launch
// cost a few microseconds of a 38 us whole-tensor sum on the H100.
__kernel __attribute__((reqd_work_group_size(SUM_WG, 1, 1)))
void reduce_onepass(__global const real_t* x, __global float* partial, __global uint* done, __global real_t* y, int m, int n,
                    int over, int mean) {
  __local float part[SUM_WG];
  __local int last;
  const long len = over == 0 ? (long)m * n : n, seg = get_group_id(1), chunk = get_group_id(0);
  const long chunks = (len + SUM_CHUNK - 1) / SUM_CHUNK;
  const int lid = get_local_id(0);
  const float total = chunk_sum(x, part, m, n, over, mean);
  if (lid == 0) {
    partial[seg * chunks + chunk] = total;
    mem_fence(CLK_GLOBAL_MEM_FENCE);  // the partial is visible before the count says so
    last = atomic_inc(&done[seg]) == (uint)(chunks - 1);
  }
  // A global fence too: the last work-group's other work-items read the partial its work-item 0 wrote
  // (Oclgrind reported the race when this barrier fenced local memory alone).
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  // The same for the whole work-group, so the barriers of workgroup_sum inside the branch are reached by
  // all of its work-items or by none; the other work-groups end here.
  if (!last) return;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  float f = 0.0f;
  __global volatile const float* p = partial + seg * chunks;  // written by other work-groups: not from a cache
  for (long c = lid; c < chunks; c += SUM_WG) f += p[c];
  const float sum = workgroup_sum(f, part);
  if (lid == 0) {
    ST(y, seg, sum);
    done[seg] = 0;
  }
}
