// y = a + b, four elements per work-item: float4 where all four are in range, one by one at the tail.
__kernel void vadd4(int n, __global const float* a, __global const float* b, __global float* y) {
  const int i = get_global_id(0) * 4;
  if (i + 4 <= n) {
    vstore4(vload4(0, a + i) + vload4(0, b + i), 0, y + i);
  } else {
    for (int j = i; j < n; ++j) y[j] = a[j] + b[j];
  }
}
