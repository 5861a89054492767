// group_norm backward with one work-group per (sample, channel) plane in every step: n * c work-groups
// fill a GPU where one per (sample, group) segment (`split`) leaves it half idle, and x is read three
// times and d_y twice in all (`split` reads x five times, d_y three times). Four steps:
//   1. group_norm_plane_moments: each plane's mean and sum of squared deviations M2 in one pass over
//      x (Welford's update in each work-item, Chan's combination over the work-group);
//   2. group_norm_plane_params: the segment's (mean, rstd) from its planes' moments, combined in plane
//      order; the plane's sums of d_y xhat and of d_y (d_gamma's and d_beta's partials);
//   3. group_norm_plane_data: mean(gg) and mean(gg xhat) over the segment, gg = d_y gamma, from those
//      partials (gamma is constant over a plane: sum(gg) = gamma sum(d_y), sum(gg xhat) = gamma
//      sum(d_y xhat)); then d_x for the plane. Where either mean comes out NaN or Inf (a non-finite
//      partial or gamma, an overflow), they are summed over the segment's values as `split` sums
//      them, so that NaN and Inf reach d_x as they reach the reference's;
//   4. param_finish (norms.cl): d_gamma and d_beta, the partials summed over the samples.
// The statistics match the two-pass ones of `split` up to rounding: M2 is the sum of squared
// deviations, free of E[x^2] - E[x]^2's cancellation.
#include "norms.cl"

// Chan, Golub and LeVeque's combination of two (count, mean, M2) summaries.
float3 combine_moments(float3 a, float3 b) {
  if (a.x == 0.0f) return b;
  if (b.x == 0.0f) return a;
  const float n = a.x + b.x, d = b.y - a.y, f = b.x / n;
  return (float3)(n, a.y + d * f, a.z + b.z + d * d * (a.x * f));
}

// The segment of plane p (sample s, channel ch): its first plane, and its (mean, rstd) from the
// moments of its cg planes of hw values, combined in plane order (every work-item the same).
float2 segment_of_planes(__global const float* moments, long first, int cg, long hw, float eps) {
  float3 t = (float3)(0.0f);
  for (int q = 0; q < cg; ++q) t = combine_moments(t, (float3)((float)hw, moments[2 * (first + q)], moments[2 * (first + q) + 1]));
  return (float2)(t.y, rsqrt(t.z / t.x + eps));
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_plane_moments(__global const real_t* x, __global float* moments, int n, int c, int h, int w) {
  __local float3 part[NORM_WG];
  const int lid = get_local_id(0);
  const long hw = (long)h * w, base = (long)get_group_id(0) * hw;
  float3 m = (float3)(0.0f);  // count, mean, M2
  for (long k = lid; k < hw; k += NORM_WG) {
    const float v = LD(x, base + k);
    m.x += 1.0f;
    const float d = v - m.y;
    m.y += d / m.x;
    m.z += d * (v - m.y);
  }
  part[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = NORM_WG / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] = combine_moments(part[lid], part[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) moments[2 * get_group_id(0)] = part[0].y, moments[2 * get_group_id(0) + 1] = part[0].z;
}

#define PLANE_SETUP                                                                         \
  __local float part[NORM_WG];                                                              \
  const int plane = get_group_id(0), ch = plane % c, cg = c / g, c0 = ch / cg * cg;         \
  const long hw = (long)h * w, first = (long)(plane / c) * c + c0;                          \
  const float2 st = segment_of_planes(moments, first, cg, hw, eps);

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_plane_params(__global const real_t* x, __global const real_t* d_y, __global const float* moments,
                             __global float* partial, int n, int c, int h, int w, int g, float eps) {
  PLANE_SETUP
  plane_param_partials(x, d_y, st.x, st.y, plane, hw, partial, part);
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_plane_data(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                           __global real_t* d_x, __global const float* moments, __global const float* partial, int n, int c,
                           int h, int w, int g, float eps) {
  PLANE_SETUP
  const long len = cg * hw;
  const float inv = 1.0f / (float)len;
  float2 mg = (float2)(0.0f);
  for (int q = 0; q < cg; ++q) {
    const float gq = LD(gamma, c0 + q);
    mg += (float2)(gq * partial[2 * (first + q) + 1], gq * partial[2 * (first + q)]) * inv;
  }
  if (!isfinite(mg.x) || !isfinite(mg.y))  // the same for the whole work-group: its barriers stay uniform
    mg = segment_grad_means(x, gamma, d_y, st.x, st.y, first * hw, len, c0, hw, part);
  write_d_x(x, gamma, d_y, d_x, st.x, st.y, mg, (long)plane * hw, hw, ch, hw);
}
