// bug: the mean of each row divided by the number of rows
// op: mean
// entries: mean_by_m
#include "reductions.cl"
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1)))
void mean_by_m(__global const float* x, __global float* y, int m, int n, int over) {
  __local float part[REDUCE_WG];
  const int lid = get_local_id(0), row = get_group_id(0);
  const long len = over == 0 ? (long)m * n : n, base = over == 0 ? 0 : (long)row * n;
  float s = 0.0f;
  for (long j = lid; j < len; j += REDUCE_WG) s += x[base + j] / (float)(over == 0 ? (long)m * n : m);
  const float total = workgroup_sum(s, part);
  if (lid == 0) y[row] = total;
}
