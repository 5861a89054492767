// vadd4 without its tail loop: the last n % 4 elements are left unwritten.
__kernel void vadd4(int n, __global const float* a, __global const float* b, __global float* y) {
  const int i = get_global_id(0) * 4;
  if (i + 4 <= n) vstore4(vload4(0, a + i) + vload4(0, b + i), 0, y + i);
}
