// group_norm backward with one work-group per (sample, channel) plane in every step: n * c work-groups
// fill a GPU where one per (sample, group) segment (`split`) leaves it half idle, and x and d_y are each
// read twice in all (`split` reads x five times, d_y three times). Three steps:
//   1. group_norm_plane_moments: each plane's moments in one pass over x and d_y together: the mean and
//      sum of squared deviations M2 of x, the mean of d_y, and the co-moment C = sum (x - mean) d_y
//      (Welford's updates in each work-item, Chan's combination over the work-group);
//   2. group_norm_plane_data: the segment's (mean, rstd) from its planes' moments, combined in plane
//      order; each of its planes' sums of d_y and of d_y xhat from their moments, D = hw mean(d_y)
//      and G = rstd (C + (mean_plane - mean) D); from those mean(gg) and mean(gg xhat) over the
//      segment, gg = d_y gamma (gamma is constant over a plane: sum(gg) = gamma D, sum(gg xhat) =
//      gamma G). Where either mean comes out NaN or Inf (a non-finite input, an overflow, Inf - Inf
//      in a co-moment), both are summed over the segment's values as `split` sums them, so that NaN
//      and Inf reach d_x as they reach the reference's. Then d_x for the plane, summing the plane's
//      d_y xhat and d_y (d_gamma's and d_beta's partials) from the values it reads;
//   3. param_finish (norms.cl): d_gamma and d_beta, the partials summed over the samples.
// Both passes read a quad (four values) a load where hw is a multiple of 4.
// Every sum is of deviations from a mean (M2, C), so none suffers E[x^2] - E[x]^2's cancellation.
#include "norms.cl"

// Chan, Golub and LeVeque's combination of two (count, mean, M2) summaries.
float3 combine_moments(float3 a, float3 b) {
  if (a.x == 0.0f) return b;
  if (b.x == 0.0f) return a;
  const float n = a.x + b.x, d = b.y - a.y, f = b.x / n;
  return (float3)(n, a.y + d * f, a.z + b.z + d * d * (a.x * f));
}

// The segment of plane p (sample s, channel ch): its first plane, and its (mean, rstd) from the
// moments (four floats a plane, below) of its cg planes of hw values, combined in plane order (every
// work-item the same).
float2 segment_of_planes(__global const float* moments, long first, int cg, long hw, float eps) {
  float3 t = (float3)(0.0f);
  for (int q = 0; q < cg; ++q) t = combine_moments(t, (float3)((float)hw, moments[4 * (first + q)], moments[4 * (first + q) + 1]));
  return (float2)(t.y, rsqrt(t.z / t.x + eps));
}

// A plane's running moments: count, means of x and d_y, M2 of x and co-moment C of x and d_y.
typedef struct {
  float n, mx, my, m2, c;
} plane_moments;

// Chan's combination, extended to the co-moment: C = Ca + Cb + (mxb - mxa)(myb - mya) na nb / n.
plane_moments combine_plane_moments(plane_moments a, plane_moments b) {
  if (a.n == 0.0f) return b;
  if (b.n == 0.0f) return a;
  const float n = a.n + b.n, dx = b.mx - a.mx, dy = b.my - a.my, f = b.n / n;
  const plane_moments r = {n, a.mx + dx * f, a.my + dy * f, a.m2 + b.m2 + dx * dx * (a.n * f), a.c + b.c + dx * dy * (a.n * f)};
  return r;
}

// Welford's update of a plane's moments with one value v of x and its d_y g.
void welford_add(plane_moments* m, float v, float g) {
  m->n += 1.0f;
  const float dx = v - m->mx;
  m->mx += dx / m->n;
  m->my += (g - m->my) / m->n;
  m->m2 += dx * (v - m->mx);
  m->c += dx * (g - m->my);
}

// A plane is read a quad (four values in one 16-byte load, 8 bytes for f16/bf16) at a time where hw
// is a multiple of 4: a few hundred planes of 16384 values leave most of the GPU's work-item slots
// empty, and wide loads keep more bytes in flight per work-item.
__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_plane_moments(__global const real_t* x, __global const real_t* d_y, __global float* moments, int n, int c, int h,
                              int w) {
  __local plane_moments part[NORM_WG];
  const int lid = get_local_id(0);
  const long hw = (long)h * w, base = (long)get_group_id(0) * hw;
  plane_moments m = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  if (hw % 4 == 0) {  // quads stay aligned: the plane starts at a multiple of hw
    for (long q = lid; q < hw / 4; q += NORM_WG) {
      const float4 v = LD4(x + base + 4 * q), g = LD4(d_y + base + 4 * q);
      welford_add(&m, v.x, g.x), welford_add(&m, v.y, g.y), welford_add(&m, v.z, g.z), welford_add(&m, v.w, g.w);
    }
  } else {
    for (long k = lid; k < hw; k += NORM_WG) welford_add(&m, LD(x, base + k), LD(d_y, base + k));
  }
  part[lid] = m;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = NORM_WG / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] = combine_plane_moments(part[lid], part[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) vstore4((float4)(part[0].mx, part[0].m2, part[0].my, part[0].c), get_group_id(0), moments);
}

// Plane q's (sum of d_y, sum of d_y xhat) from its moments (mean, M2, mean of d_y, C) and the
// segment's (mean, rstd).
float2 plane_sums(__global const float* moments, long q, long hw, float2 st) {
  const float4 mo = vload4(q, moments);
  const float d = (float)hw * mo.z;
  return (float2)(d, st.y * (mo.w + (mo.x - st.x) * d));
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_plane_data(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                           __global real_t* d_x, __global const float* moments, __global float* partial, int n, int c, int h,
                           int w, int g, float eps) {
  __local float part[NORM_WG];
  const int plane = get_group_id(0), ch = plane % c, cg = c / g, c0 = ch / cg * cg;
  const long hw = (long)h * w, first = (long)(plane / c) * c + c0, len = cg * hw;
  const float2 st = segment_of_planes(moments, first, cg, hw, eps);
  const float inv = 1.0f / (float)len;
  float2 mg = (float2)(0.0f);
  for (int q = 0; q < cg; ++q) mg += LD(gamma, c0 + q) * plane_sums(moments, first + q, hw, st) * inv;
  // mg is the same in every work-item, so the fallback's barriers stay uniform.
  if (!isfinite(mg.x) || !isfinite(mg.y)) mg = segment_grad_means(x, gamma, d_y, st.x, st.y, first * hw, len, c0, hw, part);
  // d_x = rstd (gg - mean(gg) - xhat mean(gg xhat)), as norms.cl's write_d_x with gamma constant over
  // the plane; the plane's sums of d_y xhat and of d_y (d_gamma's and d_beta's partials) on the way.
  const float gm = LD(gamma, ch);
  const long base = (long)plane * hw;
  float dg = 0.0f, db = 0.0f;
  if (hw % 4 == 0) {  // as in the moments pass
    for (long q = get_local_id(0); q < hw / 4; q += NORM_WG) {
      const long k = base + 4 * q;
      const float4 dy = LD4(d_y + k), xhat = (LD4(x + k) - st.x) * st.y;
      ST4(d_x + k, st.y * (dy * gm - mg.x - xhat * mg.y));
      dg += (dy.x * xhat.x + dy.y * xhat.y) + (dy.z * xhat.z + dy.w * xhat.w);
      db += (dy.x + dy.y) + (dy.z + dy.w);
    }
  } else {
    for (long k = base + get_local_id(0); k < base + hw; k += NORM_WG) {
      const float dy = LD(d_y, k), xhat = (LD(x, k) - st.x) * st.y;
      ST(d_x, k, st.y * (dy * gm - mg.x - xhat * mg.y));
      dg += dy * xhat;
      db += dy;
    }
  }
  const float tg = workgroup_sum(dg, part), tb = workgroup_sum(db, part);
  if (get_local_id(0) == 0) partial[2 * (long)plane] = tg, partial[2 * (long)plane + 1] = tb;
}
