// bug: the softmax backward without its dot term: d_x = y * d_y
// op: softmax_bwd
// entries: sm_bwd_nodot
__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void sm_bwd_nodot(__global const float* y, __global const float* d_y, __global float* d_x, int m, int n) {
  const long base = (long)get_group_id(0) * n;
  for (int j = get_local_id(0); j < n; j += 128) d_x[base + j] = y[base + j] * d_y[base + j];
}
