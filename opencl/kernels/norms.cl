// Normalization kernels. ABI (docs/kernel-abi.md): inputs, outputs, scratch, then every attribute:
// group_norm: n, c, h, w, g, eps; layer_norm and rms_norm: m, n, eps.
// A segment is what one normalization covers: one (sample, group) of c/g * h * w contiguous values,
// or one row. Forward: one 256-wide work-group per segment, two passes (mean, then biased variance)
// as the seed's GroupNorm, so no catastrophic E[x^2] - E[x]^2. Backward: three steps sharing the
// scratch buffer stats[2 * segments] = (mean, rstd) per segment: statistics, d_x per segment, then the
// parameter gradients with one work-item per channel (or column), deterministic (no atomics).
#ifndef NORM_WG  // the plan (norms.plan) defines it; this default serves files that include this one
#define NORM_WG 256
#endif
#include "workgroup.h"
#include "storage.h"  // tensors in the build's storage format; statistics and partial sums in float

// (mean, rstd) of xs[0, len); rms: mean 0 and rstd from the mean square. Terms are scaled by 1/len as
// they are summed, so that a representable mean or variance does not overflow on the way.
float2 segment_stats(__global const real_t* xs, long len, float eps, int rms, __local float* part) {
  const float inv = 1.0f / (float)len;
  float s = 0.0f;
  if (!rms)
    for (long j = get_local_id(0); j < len; j += NORM_WG) s += LD(xs, j) * inv;
  const float mean = rms ? 0.0f : workgroup_sum(s, part);
  float v = 0.0f;
  for (long j = get_local_id(0); j < len; j += NORM_WG) {
    const float d = LD(xs, j) - mean;
    v += d * (d * inv);
  }
  const float var = workgroup_sum(v, part);
  return (float2)(mean, rsqrt(var + eps));
}

// ---- forward ---------------------------------------------------------------------------------------

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_forward(__global const real_t* x, __global const real_t* gamma, __global const real_t* beta,
                        __global real_t* y, int n, int c, int h, int w, int g, float eps) {
  __local float part[NORM_WG];
  const int seg = get_group_id(0), cg = c / g, hw = h * w;
  const long len = (long)cg * hw, base = seg * len;  // segment (sample, group) is contiguous in NCHW
  const float2 st = segment_stats(x + base, len, eps, 0, part);
  const int c0 = (seg % g) * cg;
  for (long j = get_local_id(0); j < len; j += NORM_WG) {
    const int ch = c0 + j / hw;
    ST(y, base + j, (LD(x, base + j) - st.x) * st.y * LD(gamma, ch) + LD(beta, ch));
  }
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void layer_norm_forward(__global const real_t* x, __global const real_t* gamma, __global const real_t* beta,
                        __global real_t* y, int m, int n, float eps) {
  __local float part[NORM_WG];
  const long base = (long)get_group_id(0) * n;
  const float2 st = segment_stats(x + base, n, eps, 0, part);
  for (int j = get_local_id(0); j < n; j += NORM_WG) ST(y, base + j, (LD(x, base + j) - st.x) * st.y * LD(gamma, j) + LD(beta, j));
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void rms_norm_forward(__global const real_t* x, __global const real_t* gamma, __global real_t* y, int m, int n, float eps) {
  __local float part[NORM_WG];
  const long base = (long)get_group_id(0) * n;
  const float2 st = segment_stats(x + base, n, eps, 1, part);
  for (int j = get_local_id(0); j < n; j += NORM_WG) ST(y, base + j, LD(x, base + j) * st.y * LD(gamma, j));
}

// ---- backward, step 1: statistics per segment ------------------------------------------------------

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_stats(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                      __global real_t* d_x, __global real_t* d_gamma, __global real_t* d_beta, __global float* stats,
                      int n, int c, int h, int w, int g, float eps) {
  __local float part[NORM_WG];
  const int seg = get_group_id(0);
  const long len = (long)(c / g) * h * w;
  const float2 st = segment_stats(x + seg * len, len, eps, 0, part);
  if (get_local_id(0) == 0) stats[2 * seg] = st.x, stats[2 * seg + 1] = st.y;
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void layer_norm_stats(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                      __global real_t* d_x, __global real_t* d_gamma, __global real_t* d_beta, __global float* stats,
                      int m, int n, float eps) {
  __local float part[NORM_WG];
  const int row = get_group_id(0);
  const float2 st = segment_stats(x + (long)row * n, n, eps, 0, part);
  if (get_local_id(0) == 0) stats[2 * row] = st.x, stats[2 * row + 1] = st.y;
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void rms_norm_stats(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                    __global real_t* d_x, __global real_t* d_gamma, __global float* stats, int m, int n, float eps) {
  __local float part[NORM_WG];
  const int row = get_group_id(0);
  const float2 st = segment_stats(x + (long)row * n, n, eps, 1, part);
  if (get_local_id(0) == 0) stats[2 * row] = st.x, stats[2 * row + 1] = st.y;
}

// ---- backward, step 2: d_x per segment -------------------------------------------------------------
// With xhat = (x - mean) rstd and gg = d_y gamma: d_x = rstd (gg - mean(gg) - xhat mean(gg xhat)).

// (mean(gg), mean(gg xhat)) over the segment's values [base, base + len), to every work-item. Element j
// uses gamma[param0 + j / inner].
float2 segment_grad_means(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y, float mean, float rstd,
                          long base, long len, int param0, int inner, __local float* part) {
  const float inv = 1.0f / (float)len;
  float sg = 0.0f, sgx = 0.0f;
  for (long j = get_local_id(0); j < len; j += NORM_WG) {
    const float gg = LD(d_y, base + j) * LD(gamma, param0 + j / inner);
    sg += gg * inv;
    sgx += gg * (((LD(x, base + j) - mean) * rstd) * inv);  // scaled before the product: gg xhat may pass FLT_MAX where its mean does not
  }
  const float mean_g = workgroup_sum(sg, part);
  return (float2)(mean_g, workgroup_sum(sgx, part));
}

// d_x over [base, base + len) from the segment's statistics and gradient means mg.
void write_d_x(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y, __global real_t* d_x, float mean,
               float rstd, float2 mg, long base, long len, int param0, int inner) {
  for (long j = get_local_id(0); j < len; j += NORM_WG) {
    const float gg = LD(d_y, base + j) * LD(gamma, param0 + j / inner);
    const float xhat = (LD(x, base + j) - mean) * rstd;
    ST(d_x, base + j, rstd * (gg - mg.x - xhat * mg.y));
  }
}

void mean_var_backward_data(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                            __global real_t* d_x, float mean, float rstd, long base, long len, int param0, int inner,
                            __local float* part) {
  const float2 mg = segment_grad_means(x, gamma, d_y, mean, rstd, base, len, param0, inner, part);
  write_d_x(x, gamma, d_y, d_x, mean, rstd, mg, base, len, param0, inner);
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_backward_data(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                              __global real_t* d_x, __global real_t* d_gamma, __global real_t* d_beta,
                              __global float* stats, int n, int c, int h, int w, int g, float eps) {
  __local float part[NORM_WG];
  const int seg = get_group_id(0), cg = c / g;
  const long len = (long)cg * h * w;
  mean_var_backward_data(x, gamma, d_y, d_x, stats[2 * seg], stats[2 * seg + 1], seg * len, len, (seg % g) * cg, h * w, part);
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void layer_norm_backward_data(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                              __global real_t* d_x, __global real_t* d_gamma, __global real_t* d_beta,
                              __global float* stats, int m, int n, float eps) {
  __local float part[NORM_WG];
  const int row = get_group_id(0);
  mean_var_backward_data(x, gamma, d_y, d_x, stats[2 * row], stats[2 * row + 1], (long)row * n, n, 0, 1, part);
}

// rms: d_x_j = r gamma_j d_y_j - x_j r^3 / n * sum_i d_y_i gamma_i x_i
__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void rms_norm_backward_data(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                            __global real_t* d_x, __global real_t* d_gamma, __global float* stats, int m, int n, float eps) {
  __local float part[NORM_WG];
  const int row = get_group_id(0);
  const long base = (long)row * n;
  const float r = stats[2 * row + 1], inv = 1.0f / (float)n;
  float s = 0.0f;
  for (int j = get_local_id(0); j < n; j += NORM_WG) s += LD(d_y, base + j) * LD(gamma, j) * (LD(x, base + j) * inv);
  const float dot_n = workgroup_sum(s, part);  // sum / n
  for (int j = get_local_id(0); j < n; j += NORM_WG)
    ST(d_x, base + j, (LD(d_y, base + j) * LD(gamma, j)) * r - LD(x, base + j) * (r * r * r) * dot_n);  // d_y gamma first: r gamma can
                                                                                           // overflow where d_y = 0
}

// ---- backward, step 3: parameter gradients, one work-item per channel or column ---------------------

__kernel void group_norm_backward_params(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                                         __global real_t* d_x, __global real_t* d_gamma, __global real_t* d_beta,
                                         __global float* stats, int n, int c, int h, int w, int g, float eps) {
  const int ch = get_global_id(0);
  if (ch >= c) return;
  const int hw = h * w, cg = c / g;
  float dg = 0.0f, db = 0.0f;
  for (int s = 0; s < n; ++s) {
    const int seg = s * g + ch / cg;
    const float mean = stats[2 * seg], rstd = stats[2 * seg + 1];
    for (int k = 0; k < hw; ++k) {
      const long e = ((long)s * c + ch) * hw + k;
      dg += LD(d_y, e) * ((LD(x, e) - mean) * rstd);
      db += LD(d_y, e);
    }
  }
  ST(d_gamma, ch, dg);
  ST(d_beta, ch, db);
}

__kernel void layer_norm_backward_params(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                                         __global real_t* d_x, __global real_t* d_gamma, __global real_t* d_beta,
                                         __global float* stats, int m, int n, float eps) {
  const int j = get_global_id(0);
  if (j >= n) return;
  float dg = 0.0f, db = 0.0f;
  for (int i = 0; i < m; ++i) {
    const long e = (long)i * n + j;
    dg += LD(d_y, e) * ((LD(x, e) - stats[2 * i]) * stats[2 * i + 1]);
    db += LD(d_y, e);
  }
  ST(d_gamma, j, dg);
  ST(d_beta, j, db);
}

__kernel void rms_norm_backward_params(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y,
                                       __global real_t* d_x, __global real_t* d_gamma, __global float* stats, int m, int n,
                                       float eps) {
  const int j = get_global_id(0);
  if (j >= n) return;
  float dg = 0.0f;
  for (int i = 0; i < m; ++i) dg += LD(d_y, (long)i * n + j) * (LD(x, (long)i * n + j) * stats[2 * i + 1]);
  ST(d_gamma, j, dg);
}

// ---- backward, step 3 of the `split` variants: parameter gradients in two deterministic passes -------
// Pass 1 reduces blocks in parallel (row chunks of PCHUNK rows for the row norms; one (sample, channel)
// plane per work-group for group_norm) into partial[block][param][2] = (d_gamma, d_beta) partial sums;
// pass 2 sums each parameter's blocks in a fixed order. No atomics: the same inputs give the same bits.
#ifndef PCHUNK
#define PCHUNK 64
#endif

__kernel void row_norm_param_partials(__global const real_t* x, __global const real_t* d_y, __global const float* stats,
                                      __global float* partial, int m, int n) {
  const int j = get_global_id(0), chunk = get_global_id(1);
  if (j >= n) return;
  const int r0 = chunk * PCHUNK, r1 = min(r0 + PCHUNK, m);
  float dg = 0.0f, db = 0.0f;
  for (int i = r0; i < r1; ++i) {
    const long e = (long)i * n + j;
    dg += LD(d_y, e) * ((LD(x, e) - stats[2 * i]) * stats[2 * i + 1]);  // rms_norm's stats hold mean 0
    db += LD(d_y, e);
  }
  partial[2 * ((long)chunk * n + j)] = dg;
  partial[2 * ((long)chunk * n + j) + 1] = db;
}

// d_gamma (and d_beta, when `has_beta`) from `blocks` partials per parameter, laid out [block][p][2].
__kernel void param_finish(__global const float* partial, int blocks, int params, __global real_t* d_gamma, __global real_t* d_beta,
                           int has_beta) {
  const int p = get_global_id(0);
  if (p >= params) return;
  float dg = 0.0f, db = 0.0f;
  for (int b = 0; b < blocks; ++b) {
    dg += partial[2 * ((long)b * params + p)];
    db += partial[2 * ((long)b * params + p) + 1];
  }
  ST(d_gamma, p, dg);
  if (has_beta) ST(d_beta, p, db);
}

__kernel void rms_param_finish(__global const float* partial, int blocks, int params, __global real_t* d_gamma) {
  const int p = get_global_id(0);
  if (p >= params) return;
  float dg = 0.0f;
  for (int b = 0; b < blocks; ++b) dg += partial[2 * ((long)b * params + p)];
  ST(d_gamma, p, dg);
}

// group_norm: one work-group per (sample s, channel ch) plane of h * w contiguous values: its sums of
// d_y xhat and of d_y into partial[2 * plane], [2 * plane + 1].
void plane_param_partials(__global const real_t* x, __global const real_t* d_y, float mean, float rstd, int plane, long hw,
                          __global float* partial, __local float* part) {
  const long base = (long)plane * hw;
  float dg = 0.0f, db = 0.0f;
  for (long k = get_local_id(0); k < hw; k += NORM_WG) {
    dg += LD(d_y, base + k) * ((LD(x, base + k) - mean) * rstd);
    db += LD(d_y, base + k);
  }
  const float tg = workgroup_sum(dg, part), tb = workgroup_sum(db, part);
  if (get_local_id(0) == 0) partial[2 * (long)plane] = tg, partial[2 * (long)plane + 1] = tb;
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_param_partials(__global const real_t* x, __global const real_t* d_y, __global const float* stats,
                               __global float* partial, int n, int c, int h, int w, int g) {
  __local float part[NORM_WG];
  const int plane = get_group_id(0), s = plane / c, ch = plane % c, seg = s * g + ch / (c / g);
  plane_param_partials(x, d_y, stats[2 * seg], stats[2 * seg + 1], plane, (long)h * w, partial, part);
}
