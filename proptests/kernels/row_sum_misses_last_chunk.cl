// A sum kernel that is wrong only at multiples of its own work-group size WG (a define of its launch):
// rows are read in whole chunks of WG, then a guarded tail, and the split is off by one chunk when a
// row's length is a multiple of WG (the tail guard `lid < n % WG` then takes nothing). Over the whole
// tensor (over = all) it is right. kernel_test checks that the sizes plumbline tries follow the plan:
// it is caught for WG = 96 and WG = 200, sizes no fixed list of tile boundaries would reach.
__kernel void row_sum(__global const float* x, __global float* y, int m, int n, int over) {
  __local float part[WG];
  const int lid = get_local_id(0), row = get_group_id(0);
  const long len = over == 0 ? (long)m * n : n, base = over == 0 ? 0 : (long)row * n;
  // The bug (rows only): (len - 1) / WG whole chunks instead of len / WG.
  const long full = over == 0 ? len / WG * WG : (len - 1) / WG * WG;
  float s = 0.0f;
  for (long j = lid; j < full; j += WG) s += x[base + j];
  if (lid < len % WG) s += x[base + full + lid];
  part[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    float total = 0.0f;
    for (int i = 0; i < WG; ++i) total += part[i];
    y[row] = total;
  }
}
