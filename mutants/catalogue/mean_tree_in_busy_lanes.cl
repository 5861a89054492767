// bug: only the work-items with an element to add enter the tree reduction, whose barriers the others never reach (rows shorter than the work-group)
// op: mean
// entries: mean_busy_lanes
// sanitize: barrier-divergence
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void mean_busy_lanes(__global const float* x, __global float* y, int m, int n, int over) {
  __local float part[256];
  const int lid = get_local_id(0), row = get_group_id(0);
  const long len = over == 0 ? (long)m * n : n, base = over == 0 ? 0 : (long)row * n;
  if (lid < len) {  // idle lanes skip the work: and the barriers below
    float s = 0.0f;
    for (long j = lid; j < len; j += 256) s += x[base + j] / (float)len;
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = 128; h > 0; h >>= 1) {
      if (lid < h && lid + h < len) part[lid] += part[lid + h];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0) y[row] = part[0];
  }
}
