// bug: vectorized float4 add that assumes n divisible by 4: the tail is never written
// op: add
// entries: add4
__kernel void add4(__global const float* a, __global const float* b, __global float* y, int n) {
  const int i = get_global_id(0);
  if (i < n / 4) vstore4(vload4(i, a) + vload4(i, b), i, y);
}
