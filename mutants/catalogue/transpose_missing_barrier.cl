// bug: a tiled transpose with no barrier between each work-item's write of its tile cell and its read of the transposed cell, which another work-item writes
// op: transpose
// entries: transpose_no_barrier
// sanitize: race
#define TILE 16
__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void transpose_no_barrier(__global const float* x, __global float* y, int m, int n) {
  __local float tile[TILE][TILE + 1];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int col = get_group_id(0) * TILE + lx, row = get_group_id(1) * TILE + ly;
  if (row < m && col < n) tile[ly][lx] = x[(long)row * n + col];
  const int out_row = get_group_id(0) * TILE + ly, out_col = get_group_id(1) * TILE + lx;  // y is n x m
  if (out_row < n && out_col < m) y[(long)out_row * m + out_col] = tile[lx][ly];
}
