// An activation that also writes far out of bounds (y[n + 100000000]): on a CPU device it corrupts or
// kills its process, on a GPU it faults. cli_test checks that the run survives it: [crashed], a repro,
// and every other case and operator still reported.
__kernel void wild(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  if (i == 0) y[n + 100000000] = 1.0f;
}
