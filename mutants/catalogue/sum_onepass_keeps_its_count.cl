// bug: a one-launch sum whose last work-group adds up the partials but never sets its counter back to zero
// op: sum
// plan: sum_onepass_keeps_its_count.plan
// Our `onepass` (reductions.cl) finds a segment's last work-group with an integer counter that must be
// zero when a launch starts. Without the reset the first launch is right and the next one is not: its
// count starts where the last left off, so no work-group (or the wrong one) finishes the segment. A
// check that launches once would pass it; the plan format's counters are checked at zero afterwards.
#include "reductions.cl"

__kernel __attribute__((reqd_work_group_size(SUM_WG, 1, 1)))
void sum_keeps_count(__global const real_t* x, __global float* partial, __global uint* done, __global real_t* y, int m, int n,
                     int over) {
  __local float part[SUM_WG];
  __local int last;
  const long len = over == 0 ? (long)m * n : n, seg = get_group_id(1), chunk = get_group_id(0);
  const long chunks = (len + SUM_CHUNK - 1) / SUM_CHUNK;
  const long start = (over == 0 ? 0 : seg * n) + chunk * SUM_CHUNK;
  const long count = min((long)SUM_CHUNK, len - chunk * SUM_CHUNK);
  const int lid = get_local_id(0);
  float s = 0.0f;
  for (long j = lid; j < count; j += SUM_WG) s += LD(x, start + j);
  const float total = workgroup_sum(s, part);
  if (lid == 0) {
    partial[seg * chunks + chunk] = total;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    last = atomic_inc(&done[seg]) == (uint)(chunks - 1);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int finish = last;
  if (finish) mem_fence(CLK_GLOBAL_MEM_FENCE);
  float f = 0.0f;
  if (finish) {
    __global volatile const float* p = partial + seg * chunks;
    for (long c = lid; c < chunks; c += SUM_WG) f += p[c];
  }
  const float sum = workgroup_sum(f, part);
  if (finish && lid == 0) ST(y, seg, sum);  // the bug: done[seg] stays at chunks
}
