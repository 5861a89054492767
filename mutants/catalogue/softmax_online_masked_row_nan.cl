// bug: online softmax whose running maximum starts at -Inf and adds exp(x - m) for x = -Inf too: a work-item whose first values are masked (-Inf) gets exp(-Inf - -Inf) = NaN, and the whole row turns NaN
// op: softmax
// plan: softmax_online_masked_row_nan.plan
#include "softmax.cl"
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_online_unguarded(__global const float* x, __global float* y, int m, int n) {
  __local float2 part[ROW_WG];
  const long base = (long)get_group_id(0) * n;
  const int lid = get_local_id(0);
  float mx = -INFINITY, s = 0.0f;
  for (int j = lid; j < n; j += ROW_WG) {
    const float v = x[base + j];
    if (v > mx) {
      s = s * exp(mx - v) + 1.0f;
      mx = v;
    } else {
      s += exp(v - mx);  // the bug: no test for v = -Inf
    }
  }
  part[lid] = (float2)(mx, s);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = ROW_WG / 2; k > 0; k >>= 1) {
    if (lid < k) part[lid] = combine_max_sum(part[lid], part[lid + k]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float row_max = part[0].x, sum = part[0].y;
  for (int j = lid; j < n; j += ROW_WG) y[base + j] = exp(x[base + j] - row_max) / sum;
}
