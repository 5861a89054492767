// leaky_relu with a bug: the slope hard-coded to the default, 0.01, whatever the problem says.
__kernel void leaky_relu(__global const float* x, __global float* y, int n, float slope) {
  const int i = get_global_id(0);
  if (i < n) y[i] = x[i] > 0 ? x[i] : 0.01f * x[i];
}
