// bug: a tree reduction whose local slots are written only by the work-items with an element to add, while every level reads all of them (rows shorter than the work-group)
// op: sum
// entries: sum_unwritten
// sanitize: uninitialized
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void sum_unwritten(__global const float* x, __global float* y, int m, int n, int over) {
  __local float part[256];
  const int lid = get_local_id(0), row = get_group_id(0);
  const long len = over == 0 ? (long)m * n : n, base = over == 0 ? 0 : (long)row * n;
  float s = 0.0f;
  for (long j = lid; j < len; j += 256) s += x[base + j];
  if (lid < len) part[lid] = s;  // "idle lanes have nothing to store"
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = 128; h > 0; h >>= 1) {
    if (lid < h) part[lid] += part[lid + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) y[row] = part[0];
}
