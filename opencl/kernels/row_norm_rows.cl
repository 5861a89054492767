// layer_norm_bwd and rms_norm_bwd in one pass over the tensors (their `rows` variants). A work-group
// takes ROWS consecutive rows, one after the other; for each row, each work-item holds the PER values
// of x and d_y at its columns (lid, lid + NORM_WG, ...) in registers, so x and d_y are read from
// memory once: the row's statistics, its d_x, and the block's d_gamma (and d_beta) partial sums, which
// stay in registers across the block's rows, all come from them. The split variants (norms.cl) read
// x three times and d_y twice in four launches. partial[block][column] holds (d_gamma, d_beta);
// norms.cl's param_finish / rms_param_finish add the blocks up in order (deterministic: no atomics).
// Serves n <= PER * NORM_WG. Global size cdiv(m, ROWS) * NORM_WG.
//   layer: xhat = (x - mean) rstd, d_x = rstd (gg - mean(gg) - xhat mean(gg xhat)), gg = d_y gamma
//   rms:   mean = 0, and d_x = rstd (gg - xhat mean(gg xhat))   (the same with mean(gg) left out)
#include "norms.cl"  // workgroup_sum, param_finish, rms_param_finish

#ifndef ROWS
#define ROWS 8
#endif
#ifndef PER
#define PER 4
#endif

void row_norm_bwd_rows(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y, __global real_t* d_x,
                       __global float* partial, int m, int n, float eps, int rms, __local float* part) {
  const int lid = get_local_id(0), block = get_group_id(0), r0 = block * ROWS, r1 = min(r0 + ROWS, m);
  const float inv = 1.0f / (float)n;
  float g[PER], dg[PER], db[PER];
  _Pragma("unroll") for (int t = 0; t < PER; ++t) {
    const int j = lid + t * NORM_WG;
    g[t] = j < n ? LD(gamma, j) : 0.0f;
    dg[t] = db[t] = 0.0f;
  }
  for (int r = r0; r < r1; ++r) {  // the same rows for the whole work-group: its barriers agree
    const long base = (long)r * n;
    float xv[PER], dy[PER], s = 0.0f;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const int j = lid + t * NORM_WG;
      xv[t] = j < n ? LD(x, base + j) : 0.0f;
      dy[t] = j < n ? LD(d_y, base + j) : 0.0f;
      s += xv[t] * inv;  // terms scaled as they are summed: a representable mean does not overflow
    }
    const float mean = rms ? 0.0f : workgroup_sum(s, part);
    float v = 0.0f;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const float d = xv[t] - mean;
      if (lid + t * NORM_WG < n) v += d * (d * inv);
    }
    const float rstd = rsqrt(workgroup_sum(v, part) + eps);
    float sg = 0.0f, sgx = 0.0f;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const float gg = dy[t] * g[t], xhat = (xv[t] - mean) * rstd;
      if (lid + t * NORM_WG < n) sg += gg * inv, sgx += gg * (xhat * inv);  // scaled before the product: gg xhat may pass FLT_MAX where its mean does not
    }
    const float mean_g = rms ? 0.0f : workgroup_sum(sg, part), mean_gx = workgroup_sum(sgx, part);
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const int j = lid + t * NORM_WG;
      if (j >= n) continue;
      const float gg = dy[t] * g[t], xhat = (xv[t] - mean) * rstd;
      ST(d_x, base + j, rstd * (gg - mean_g - xhat * mean_gx));
      dg[t] += dy[t] * xhat;
      db[t] += dy[t];
    }
  }
  _Pragma("unroll") for (int t = 0; t < PER; ++t) {
    const int j = lid + t * NORM_WG;
    if (j < n) partial[2 * ((long)block * n + j)] = dg[t], partial[2 * ((long)block * n + j) + 1] = db[t];
  }
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void layer_norm_bwd_rows(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y, __global real_t* d_x,
                         __global float* partial, int m, int n, float eps) {
  __local float part[NORM_WG];  // OpenCL declares __local arrays in kernels only
  row_norm_bwd_rows(x, gamma, d_y, d_x, partial, m, n, eps, 0, part);
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void rms_norm_bwd_rows(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y, __global real_t* d_x,
                       __global float* partial, int m, int n, float eps) {
  __local float part[NORM_WG];
  row_norm_bwd_rows(x, gamma, d_y, d_x, partial, m, n, eps, 1, part);
}
