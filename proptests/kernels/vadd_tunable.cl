// A tunable add (VW elements per work-item, WG work-items per group) that is wrong at one point of its
// tuning space: with VW = 4 it drops the last n % 4 elements. cli_test tunes it: the tuner must check
// every candidate before timing it, discard and report the VW = 4 ones, and never choose them.
__kernel void vadd(__global const float* a, __global const float* b, __global float* y, int n) {
  const int i = get_global_id(0) * VW;
  for (int e = 0; e < VW; ++e) {
    const int j = i + e;
#if VW == 4
    if (j < n / 4 * 4) y[j] = a[j] + b[j];  // the bug
#else
    if (j < n) y[j] = a[j] + b[j];
#endif
  }
}
