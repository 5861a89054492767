// bug: column sums that stop one row short (i < m - 1)
// op: bias_add_bwd
// entries: bias_add_backward_data,short_sum
#include "elementwise.cl"
__kernel void short_sum(__global const float* d_y, __global float* d_x, __global float* d_bias, int m, int n) {
  const int j = get_global_id(0);
  if (j >= n) return;
  float s = 0.0f;
  for (int i = 0; i < m - 1; ++i) s += d_y[i * n + j];
  d_bias[j] = s;
}
