// group_norm backward with each (sample, group) segment cut into `chunks` pieces, a work-group each.
// Diffusion and ResNet shapes have few segments of many values (n*g = 128 segments of 32768): one
// work-group per segment (norms.cl's `split`) leaves most of a GPU idle. Four steps, each over every
// (segment, chunk); each writes one partial sum per chunk to the scratch `sums` ([segment][chunk][4]),
// and the next step adds a segment's partials up in chunk order (deterministic: no atomics):
//   1. sum of x / len;
//   2. with the mean: sum of (x - mean)^2 / len (two passes, as the forward: no E[x^2] - E[x]^2);
//   3. with (mean, rstd): sums of gg / len and gg xhat / len, gg = d_y gamma, xhat = (x - mean) rstd;
//   4. d_x = rstd (gg - mean(gg) - xhat mean(gg xhat)); chunk 0 also writes (mean, rstd) to `stats`
//      for the parameter gradients (group_norm_param_partials and param_finish, from norms.cl).
#include "norms.cl"

// The values of chunk `chunk` of a segment of len: [*begin, *end).
void chunk_range(long len, int chunks, int chunk, long* begin, long* end) {
  const long size = (len + chunks - 1) / chunks;
  *begin = min(len, chunk * size);
  *end = min(len, *begin + size);
}

// Field f of the segment's partials, added up in chunk order.
float chunks_total(__global const float* sums, int seg, int chunks, int f) {
  float t = 0.0f;
  for (int i = 0; i < chunks; ++i) t += sums[((long)seg * chunks + i) * 4 + f];
  return t;
}

#define CHUNK_SETUP                                                      \
  __local float part[NORM_WG];                                          \
  const int seg = get_group_id(0) / chunks, chunk = get_group_id(0) % chunks, cg = c / g, hw = h * w; \
  const long len = (long)cg * hw, base = seg * len;                     \
  const float inv = 1.0f / (float)len;                                  \
  long begin, end;                                                      \
  chunk_range(len, chunks, chunk, &begin, &end);                        \
  __global float* mine = sums + ((long)seg * chunks + chunk) * 4;

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_chunk_mean(__global const real_t* x, __global float* sums, int n, int c, int h, int w, int g, int chunks) {
  CHUNK_SETUP
  float s = 0.0f;
  for (long j = begin + get_local_id(0); j < end; j += NORM_WG) s += LD(x, base + j) * inv;
  const float t = workgroup_sum(s, part);
  if (get_local_id(0) == 0) mine[0] = t;
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_chunk_var(__global const real_t* x, __global float* sums, int n, int c, int h, int w, int g, int chunks) {
  CHUNK_SETUP
  const float mean = chunks_total(sums, seg, chunks, 0);
  float v = 0.0f;
  for (long j = begin + get_local_id(0); j < end; j += NORM_WG) {
    const float d = LD(x, base + j) - mean;
    v += d * (d * inv);
  }
  const float t = workgroup_sum(v, part);
  if (get_local_id(0) == 0) mine[1] = t;
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_chunk_grads(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y, __global float* sums,
                            int n, int c, int h, int w, int g, float eps, int chunks) {
  CHUNK_SETUP
  const float mean = chunks_total(sums, seg, chunks, 0), rstd = rsqrt(chunks_total(sums, seg, chunks, 1) + eps);
  const int c0 = (seg % g) * cg;
  float sg = 0.0f, sgx = 0.0f;
  for (long j = begin + get_local_id(0); j < end; j += NORM_WG) {
    const float gg = LD(d_y, base + j) * LD(gamma, c0 + j / hw);
    sg += gg * inv;
    sgx += gg * (((LD(x, base + j) - mean) * rstd) * inv);  // scaled before the product, as norms.cl's segment sums
  }
  const float tg = workgroup_sum(sg, part), tgx = workgroup_sum(sgx, part);
  if (get_local_id(0) == 0) mine[2] = tg, mine[3] = tgx;
}

__kernel __attribute__((reqd_work_group_size(NORM_WG, 1, 1)))
void group_norm_chunk_data(__global const real_t* x, __global const real_t* gamma, __global const real_t* d_y, __global real_t* d_x,
                           __global float* sums, __global float* stats, int n, int c, int h, int w, int g, float eps, int chunks) {
  CHUNK_SETUP
  const float mean = chunks_total(sums, seg, chunks, 0), rstd = rsqrt(chunks_total(sums, seg, chunks, 1) + eps);
  const float mean_g = chunks_total(sums, seg, chunks, 2), mean_gx = chunks_total(sums, seg, chunks, 3);
  const int c0 = (seg % g) * cg;
  for (long j = begin + get_local_id(0); j < end; j += NORM_WG) {
    const float gg = LD(d_y, base + j) * LD(gamma, c0 + j / hw);
    const float xhat = (LD(x, base + j) - mean) * rstd;
    ST(d_x, base + j, rstd * (gg - mean_g - xhat * mean_gx));
  }
  if (chunk == 0 && get_local_id(0) == 0) stats[2 * seg] = mean, stats[2 * seg + 1] = rstd;
}
