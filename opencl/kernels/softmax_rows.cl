// softmax and log_softmax over shorter rows (their `rows` variants). A work-group takes ROWS
// consecutive rows, one after the other; for each row, every work-item holds its PER values (columns
// lid, lid + ROW_WG, ...) in registers, so x is read from memory once and exp is taken once per element,
// where the seed reads x three times and takes exp twice. The same sums in the same order as the seed
// (per work-item, then workgroup_sum's tree), so the same bits at the same ROW_WG. Edge values as the
// seed: a NaN anywhere makes its row NaN (max_nan); -Inf entries weigh 0; a row all -Inf, or with an
// +Inf maximum, gives exp(-Inf - -Inf) or exp(Inf - Inf) = NaN, as the reference's exp(x - max).
// Serves n <= PER * ROW_WG. Global size cdiv(m, ROWS) * ROW_WG.
#include "softmax.cl"  // max_nan, workgroup_sum

#ifndef ROWS
#define ROWS 1
#endif
#ifndef PER
#define PER 4
#endif

// The largest `mine` of the work-group (NaN counts as the largest), returned to every work-item.
float workgroup_max_nan(float mine, __local float* part) {
  const int lid = get_local_id(0);
  part[lid] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = ROW_WG / 2; k > 0; k >>= 1) {
    if (lid < k) part[lid] = max_nan(part[lid], part[lid + k]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const float largest = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  return largest;
}

void softmax_rows(__global const real_t* x, __global real_t* y, int m, int n, int log_space, __local float* part) {
  const int lid = get_local_id(0), r0 = get_group_id(0) * ROWS, r1 = min(r0 + ROWS, m);
  for (int r = r0; r < r1; ++r) {  // the same rows for the whole work-group: its barriers agree
    const long base = (long)r * n;
    float v[PER];
    float mine = -INFINITY;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const int j = lid + t * ROW_WG;
      v[t] = j < n ? LD(x, base + j) : -INFINITY;
      mine = max_nan(mine, v[t]);
    }
    const float mx = workgroup_max_nan(mine, part);
    float e = 0.0f;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      if (lid + t * ROW_WG >= n) break;
      const float ex = exp(v[t] - mx);
      e += ex;
      if (!log_space) v[t] = ex;
    }
    const float sum = workgroup_sum(e, part);
    const float lse = log_space ? log(sum) : 0.0f;
    _Pragma("unroll") for (int t = 0; t < PER; ++t) {
      const int j = lid + t * ROW_WG;
      if (j >= n) break;
      ST(y, base + j, log_space ? (v[t] - mx) - lse : v[t] / sum);
    }
  }
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_forward_rows(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float part[ROW_WG];
  softmax_rows(x, y, m, n, 0, part);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_softmax_forward_rows(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float part[ROW_WG];
  softmax_rows(x, y, m, n, 1, part);
}
