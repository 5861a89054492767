// layer_norm and rms_norm forward in one read of x (their `rows` variants). A work-group takes ROWS
// consecutive rows, one after the other; for each row, every work-item holds its PER values (columns
// lid, lid + NORM_WG, ...) in registers, and its PER gammas and betas across the rows. The seed
// (norms.cl) reads x three times: mean, variance, output. The same two passes over the values (mean,
// then biased variance: no E[x^2] - E[x]^2), the same sums in the same order and the same output
// expressions as the seed.
// Serves n <= PER * NORM_WG. Global size cdiv(m, ROWS) * NORM_WG.
#include "norms.cl"  // workgroup_sum

#ifndef ROWS
#define ROWS 4
#endif
#ifndef PER
#define PER 4
#endif

void row_norm_forward_rows(__global const real_t* x, __global const real_t* gamma, __global const real_t* beta, __global real_t* y,
                           int m, int n, float eps, int rms, __local float* part) {
  const int lid = get_local_id(0), r0 = get_group_id(0) * ROWS, r1 = min(r0 + ROWS, m);
  const float inv = 1.0f / (float)n;
  float g[PER], b[PER];
  _Pragma("unroll") for (int t = 0; t < PER; ++t) {
    const int j = lid + t * NORM_WG;
    g[t] = j < n ? LD(gamma, j) : 0.0f;
    b[t] = j < n && !rms ? LD(beta, j) : 0.0f;
  }
  for (int r = r0; r < r1; ++r) {  // the same rows for the whole work-group: its barriers agree
    const long base = (long)r * n;
    float v[PER];
    float s = 0.0f;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const int j = lid + t * NORM_WG;
      v[t] = j < n ? LD(x, base + j) : 0.0f;
      if (!rms && j < n) s += v[t] * inv;
    }
    const float mean = rms ? 0.0f : workgroup_sum(s, part);
    float q = 0.0f;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {  // no `break`: v stays in registers only if fully unrolled
      const float d = v[t] - mean;
      if (lid + t * NORM_WG < n) q += d * (d * inv);
    }
    const float rstd = rsqrt(workgroup_sum(q, part) + eps);
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const int j = lid + t * NORM_WG;
      if (j < n) ST(y, base + j, rms ? v[t] * rstd * g[t] : (v[t] - mean) * rstd * g[t] + b[t]);
    }
  }
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void layer_norm_forward_rows(__global const real_t* x, __global const real_t* gamma, __global const real_t* beta, __global real_t* y,
                             int m, int n, float eps) {
  __local float part[NORM_WG];
  row_norm_forward_rows(x, gamma, beta, y, m, n, eps, 0, part);
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void rms_norm_forward_rows(__global const real_t* x, __global const real_t* gamma, __global real_t* y, int m, int n, float eps) {
  __local float part[NORM_WG];
  row_norm_forward_rows(x, gamma, gamma, y, m, n, eps, 1, part);  // no beta: rms never reads that argument
}
