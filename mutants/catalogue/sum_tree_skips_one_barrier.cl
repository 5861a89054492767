// bug: a tree reduction in local memory whose barrier after one level (h = 64) is gone: a work-item reads a partial its neighbour has not yet added to
// op: sum
// entries: sum_tree_skip
// sanitize: race
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void sum_tree_skip(__global const float* x, __global float* y, int m, int n, int over) {
  __local float part[256];
  const int lid = get_local_id(0), row = get_group_id(0);
  const long len = over == 0 ? (long)m * n : n, base = over == 0 ? 0 : (long)row * n;
  float s = 0.0f;
  for (long j = lid; j < len; j += 256) s += x[base + j];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = 128; h > 0; h >>= 1) {
    if (lid < h) part[lid] += part[lid + h];
    if (h != 64) barrier(CLK_LOCAL_MEM_FENCE);  // "the next level only reads what this one's first half wrote"
  }
  if (lid == 0) y[row] = part[0];
}
