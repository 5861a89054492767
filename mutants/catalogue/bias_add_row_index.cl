// bug: bias indexed by the row (i / n) instead of the column (i % n)
// op: bias_add
// entries: bias_row
__kernel void bias_row(__global const float* x, __global const float* bias, __global float* y, int m, int n) {
  const int i = get_global_id(0);
  if (i < m * n) y[i] = x[i] + bias[(i / n) % n];
}
