// bug: the output guard uses the input's bounds: for non-square shapes a corner of y is never written
// op: transpose
// entries: transpose_corner
__kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void transpose_corner(__global const float* x, __global float* y, int m, int n) {
  __local float tile[16][17];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int col = get_group_id(0) * 16 + lx, row = get_group_id(1) * 16 + ly;
  if (row < m && col < n) tile[ly][lx] = x[(long)row * n + col];
  barrier(CLK_LOCAL_MEM_FENCE);
  const int out_row = get_group_id(0) * 16 + ly, out_col = get_group_id(1) * 16 + lx;
  if (out_row < min(m, n) && out_col < min(m, n)) y[(long)out_row * m + out_col] = tile[lx][ly];
}
