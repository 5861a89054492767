// The seed's GroupNorm forward (seed 001, meganeura): one 256-wide work-group per (n, group), two
// passes, per-channel affine. It computes channels_per_group = channels / num_groups and never checks
// that the division is exact: with c % g != 0 the last channels are never normalized. plumbline
// refuses such a problem before any kernel runs; on valid problems this kernel is right.
__kernel __attribute__((reqd_work_group_size(256, 1, 1)))
void seed_group_norm(__global const float* x, __global const float* gamma, __global const float* beta, __global float* y,
                     int n, int c, int h, int w, int g, float eps) {
  __local float part[256];
  const int ng = get_group_id(0), tid = get_local_id(0);
  const int grp = ng % g, spatial = h * w, cpg = c / g, size = cpg * spatial;
  const long base = ((long)(ng / g) * c + grp * cpg) * spatial;
  float s = 0.0f;
  for (int j = tid; j < size; j += 256) s += x[base + j];
  part[tid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int st = 128; st > 0; st >>= 1) {
    if (tid < st) part[tid] += part[tid + st];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float mean = part[0] / (float)size;
  barrier(CLK_LOCAL_MEM_FENCE);
  float v = 0.0f;
  for (int j = tid; j < size; j += 256) v += (x[base + j] - mean) * (x[base + j] - mean);
  part[tid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int st = 128; st > 0; st >>= 1) {
    if (tid < st) part[tid] += part[tid + st];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float inv_std = rsqrt(part[0] / (float)size + eps);
  for (int j = tid; j < size; j += 256) {
    const int ch = grp * cpg + j / spatial;
    y[base + j] = (x[base + j] - mean) * inv_std * gamma[ch] + beta[ch];
  }
}
