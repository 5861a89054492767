// bug: a global average pool that sums the plane and forgets to divide by h*w
// op: global_avg_pool
// entries: gap_sum
#include "pooling.cl"
__kernel __attribute__((reqd_work_group_size(GAP_WG, 1, 1)))
void gap_sum(__global const float* x, __global float* y, int n, int c, int h, int w) {
  __local float part[GAP_WG];
  const long plane = get_group_id(0);
  float s = 0.0f;
  for (int k = get_local_id(0); k < h * w; k += GAP_WG) s += x[plane * h * w + k];
  const float total = workgroup_sum(s, part);
  if (get_local_id(0) == 0) y[plane] = total;
}
