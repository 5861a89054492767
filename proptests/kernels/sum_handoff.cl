// A whole-tensor sum in one launch, its work-groups handing their partials to the last one to count
// itself done (as reductions.cl's reduce_onepass). GLOBAL_FENCE=0 leaves the barrier after the count
// fencing local memory only: the last work-group's other work-items then read the partial its
// work-item 0 wrote without an order, a race within one work-group that no `handoff` line covers.
#ifndef GLOBAL_FENCE
#define GLOBAL_FENCE 1
#endif
#define WG 64
#define CHUNK 256
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sum_handoff(__global const float* x, __global float* partial, __global uint* done, __global float* y, int m, int n) {
  __local float part[WG];
  __local int last;
  const int lid = get_local_id(0), chunk = get_group_id(0), chunks = get_num_groups(0);
  const long len = (long)m * n, first = (long)chunk * CHUNK;
  float s = 0.0f;
  for (long j = first + lid; j < first + CHUNK && j < len; j += WG) s += x[j];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float t = 0.0f;
    for (int i = 0; i < WG; ++i) t += part[i];
    partial[chunk] = t;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    last = atomic_inc(&done[0]) == (uint)(chunks - 1);
  }
#if GLOBAL_FENCE
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#else
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  if (!last) return;
  __global volatile const float* p = partial;
  float f = 0.0f;
  for (int c = lid; c < chunks; c += WG) f += p[c];
  part[lid] = f;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float t = 0.0f;
    for (int i = 0; i < WG; ++i) t += part[i];
    y[0] = t;
    done[0] = 0;
  }
}
