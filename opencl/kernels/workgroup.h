// Work-group reductions shared by the kernel families (inlined by the runtime where included).

// The sum of every work-item's `mine` over a 1-D work-group, returned to all of them. `part` holds
// get_local_size(0) floats (a power of two); a tree in local memory, barriers included, so every
// work-item must call it.
float workgroup_sum(float mine, __local float* part) {
  const int lid = get_local_id(0), size = get_local_size(0);
  part[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = size / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] += part[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float total = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return total;
}
