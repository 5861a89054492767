// An activation that also writes a little past its output's guard zone (y[n + 4096]): on a CPU device
// that computes in host memory, a write into the check process's own heap. cli_test checks that it is a
// [crashed] verdict in the case that made it (the buffers are fenced), never a corrupted run.
__kernel void heap(__global const float* x, __global float* y, int n, int act) {
  const int i = get_global_id(0);
  if (i < n) y[i] = x[i] > 0.0f ? x[i] : 0.0f;
  if (i == 0) y[n + 4096] = 1.0f;
}
