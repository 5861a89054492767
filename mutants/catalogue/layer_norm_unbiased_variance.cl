// bug: the unbiased variance (divided by n - 1) where the definition is biased
// op: layer_norm
// entries: ln_unbiased
#include "norms.cl"

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void ln_unbiased(__global const float* x, __global const float* gamma, __global const float* beta, __global float* y, int m, int n, float eps) {
  __local float part[NORM_WG];
  const long base = (long)get_group_id(0) * n;
  const float inv = 1.0f / (float)n;
  float s = 0.0f, s2 = 0.0f;
  for (int j = get_local_id(0); j < n; j += NORM_WG) s += x[base + j] * inv;
  const float mean = workgroup_sum(s, part);
  for (int j = get_local_id(0); j < n; j += NORM_WG) s2 += (x[base + j] - mean) * (x[base + j] - mean) / (float)max(n - 1, 1);
  const float second = workgroup_sum(s2, part);
  const float rstd = rsqrt(second + eps);
  for (int j = get_local_id(0); j < n; j += NORM_WG) y[base + j] = (x[base + j] - mean) * rstd * gamma[j] + beta[j];
}
