// leaky_relu, one element per work-item.
__kernel void leaky_relu(__global const float* x, __global float* y, int n, float slope) {
  const int i = get_global_id(0);
  if (i < n) y[i] = x[i] > 0 ? x[i] : slope * x[i];
}
