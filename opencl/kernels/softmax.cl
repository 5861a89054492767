// Softmax and loss kernels. ABI (docs/kernel-abi.md): inputs, outputs, then every attribute
// (softmax family: m, n; cross_entropy: b, c, labels with 0 = index, 1 = soft).
// One 128-wide work-group per row: a tree reduction for the row's maximum (NaN counts as the largest,
// so a NaN anywhere makes the row NaN, as the reference), then for the sum of exp(x - max).
#ifndef ROW_WG  // the plan (softmax.plan) defines it; this default serves files that include this one
#define ROW_WG 128
#endif
#include "workgroup.h"
#include "storage.h"  // every kernel reads its logits in the build's storage format

float max_nan(float a, float b) { return isnan(a) ? a : (isnan(b) ? b : fmax(a, b)); }

// Row statistics into *mx and *sum; every work-item gets them. `part` holds ROW_WG floats.
void row_max_sum(__global const real_t* x, int n, __local float* part, float* mx, float* sum) {
  const int lid = get_local_id(0);
  float m = -INFINITY;
  for (int j = lid; j < n; j += ROW_WG) m = j == lid ? LD(x, j) : max_nan(m, LD(x, j));
  part[lid] = lid < n ? m : -INFINITY;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = ROW_WG / 2; s > 0; s >>= 1) {
    if (lid < s) part[lid] = max_nan(part[lid], part[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *mx = part[0];
  barrier(CLK_LOCAL_MEM_FENCE);
  float e = 0.0f;
  for (int j = lid; j < n; j += ROW_WG) e += exp(LD(x, j) - *mx);
  *sum = workgroup_sum(e, part);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_forward(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float part[ROW_WG];
  const long row = get_group_id(0);
  float mx, sum;
  row_max_sum(x + row * n, n, part, &mx, &sum);
  for (int j = get_local_id(0); j < n; j += ROW_WG) ST(y, row * n + j, exp(LD(x, row * n + j) - mx) / sum);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_softmax_forward(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float part[ROW_WG];
  const long row = get_group_id(0);
  float mx, sum;
  row_max_sum(x + row * n, n, part, &mx, &sum);
  const float lse = log(sum);
  for (int j = get_local_id(0); j < n; j += ROW_WG) ST(y, row * n + j, (LD(x, row * n + j) - mx) - lse);
}

// d_x = y * (d_y - sum(d_y * y)), evaluated as y * d_y - y * dot: with y in [0, 1] neither product
// overflows, while d_y - dot can (d_y = -FLT_MAX, dot > 0) where the result is finite.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_backward(__global const real_t* y, __global const real_t* d_y, __global real_t* d_x, int m, int n) {
  __local float part[ROW_WG];
  const long base = (long)get_group_id(0) * n;
  float mine = 0.0f;
  for (int j = get_local_id(0); j < n; j += ROW_WG) mine += LD(d_y, base + j) * LD(y, base + j);
  const float dot = workgroup_sum(mine, part);
  for (int j = get_local_id(0); j < n; j += ROW_WG) {
    const float yj = LD(y, base + j);
    ST(d_x, base + j, yj * LD(d_y, base + j) - yj * dot);
  }
}

// d_x = d_y - exp(y) * sum(d_y)
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_softmax_backward(__global const real_t* y, __global const real_t* d_y, __global real_t* d_x, int m, int n) {
  __local float part[ROW_WG];
  const long base = (long)get_group_id(0) * n;
  float mine = 0.0f;
  for (int j = get_local_id(0); j < n; j += ROW_WG) mine += LD(d_y, base + j);
  const float total = workgroup_sum(mine, part);
  for (int j = get_local_id(0); j < n; j += ROW_WG) ST(d_x, base + j, LD(d_y, base + j) - exp(LD(y, base + j)) * total);
}

// Weight of class j in row i: one-hot of target[i] for class indices, target[i, j] for soft labels.
float target_weight(__global const float* target, int labels, int c, long i, int j) {
  return labels == 0 ? ((int)target[i] == j ? 1.0f : 0.0f) : target[i * c + j];
}

// loss = -(1/b) sum_i sum_j t_ij * log_softmax(logits_i)_j: one work-group walks the rows.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_forward(__global const real_t* logits, __global const float* target, __global float* loss, int b, int c,
                           int labels) {
  __local float part[ROW_WG];
  float total = 0.0f;
  for (long i = 0; i < b; ++i) {
    float mx, sum;
    row_max_sum(logits + i * c, c, part, &mx, &sum);
    const float lse = log(sum);
    float mine = 0.0f;
    for (int j = get_local_id(0); j < c; j += ROW_WG) {
      const float t = target_weight(target, labels, c, i, j);
      if (t != 0.0f) mine -= t * ((LD(logits, i * c + j) - mx) - lse);  // a zero weight adds nothing, even against -Inf
    }
    total += workgroup_sum(mine, part);
  }
  if (get_local_id(0) == 0) loss[0] = total / (float)b;
}

// d_logits_ij = d_loss / b * (softmax_ij * sum_j t_ij - t_ij): one work-group per row.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_backward(__global const real_t* logits, __global const float* target, __global const float* d_loss,
                            __global float* d_logits, int b, int c, int labels) {
  __local float part[ROW_WG];
  const long i = get_group_id(0);
  float mx, sum;
  row_max_sum(logits + i * c, c, part, &mx, &sum);
  float mine = 0.0f;
  for (int j = get_local_id(0); j < c; j += ROW_WG) mine += target_weight(target, labels, c, i, j);
  const float weights = workgroup_sum(mine, part);
  const float scale = d_loss[0] / (float)b;
  for (int j = get_local_id(0); j < c; j += ROW_WG)
    d_logits[i * c + j] = scale * (exp(LD(logits, i * c + j) - mx) / sum * weights - target_weight(target, labels, c, i, j));
}

// The `wide` variants' row statistics in one pass over the row (online softmax): each work-item keeps
// its running maximum m and its sum s of exp(x - m), rescaled when m grows; the work-group then
// combines the pairs in a tree. The row is read twice in all (statistics, output), not three times.
// Edge values as row_max_sum: a NaN makes s NaN (the row's outputs NaN); -Inf adds nothing; an
// +Inf maximum makes exp(Inf - Inf) NaN, as in the reference's exp(x - max).
float2 combine_max_sum(float2 a, float2 b) {  // (m, s) pairs: the larger maximum, the sums rescaled to it
  const float m = fmax(a.x, b.x);
  return (float2)(m, (a.y == 0.0f ? 0.0f : a.y * exp(a.x - m)) + (b.y == 0.0f ? 0.0f : b.y * exp(b.x - m)));
}
// The work-group's (m, s) pairs combined in a tree through part (ROW_WG float2): the row's maximum and
// sum into *mx and *sum for every work-item.
void group_max_sum(__local float2* part, float m, float s, float* mx, float* sum) {
  const int lid = get_local_id(0);
  part[lid] = (float2)(m, s);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = ROW_WG / 2; k > 0; k >>= 1) {
    if (lid < k) part[lid] = combine_max_sum(part[lid], part[lid + k]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  *mx = part[0].x;
  *sum = part[0].y;
}
void row_max_sum_online(__global const real_t* x, int n, __local float2* part, float* mx, float* sum) {
  const int lid = get_local_id(0);
  float m = -INFINITY, s = 0.0f;
  for (int j = lid; j < n; j += ROW_WG) {
    const float v = LD(x, j);
    if (v > m) {
      s = s * exp(m - v) + 1.0f;
      m = v;
    } else if (v != -INFINITY) {
      s += exp(v - m);  // NaN: s turns NaN; v == m == +Inf: exp(NaN)
    }
  }
  group_max_sum(part, m, s, mx, sum);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_forward_online(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float2 part[ROW_WG];
  const long row = get_group_id(0);
  float mx, sum;
  row_max_sum_online(x + row * n, n, part, &mx, &sum);
  for (int j = get_local_id(0); j < n; j += ROW_WG) ST(y, row * n + j, exp(LD(x, row * n + j) - mx) / sum);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_softmax_forward_online(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float2 part[ROW_WG];
  const long row = get_group_id(0);
  float mx, sum;
  row_max_sum_online(x + row * n, n, part, &mx, &sum);
  const float lse = log(sum);
  for (int j = get_local_id(0); j < n; j += ROW_WG) ST(y, row * n + j, (LD(x, row * n + j) - mx) - lse);
}

// cross_entropy in every storage format (the `rows`, `narrow` and `wide` variants; the seed kernels
// above keep version 1's ABI: float32, one kernel that takes `labels`). Logits, loss, d_loss and
// d_logits are in the build's format, and so are soft labels (probabilities); class indices stay
// float32 in every format (an index up to 50257 is no f16 value). So each kernel comes as an index
// entry (float target) and a `_soft` one (real_t target), and softmax.plan picks one by `labels`.

// A row's statistics (max, sum of exp(x - max)): in one pass (row_max_sum_online) where the plan
// defines ONLINE=1 and the logits are float32 (x read once less), else in two (row_max_sum). On the
// H100 the one pass made float32 0.360 -> 0.283 ms (forward, 4096x32000) but bf16 0.228 -> 0.267 ms:
// 16-bit rows are half the bytes, and the one-pass update costs more instructions per value.
// part holds ROW_WG float2.
#if defined(ONLINE) && ONLINE && !defined(DTYPE_F16) && !defined(DTYPE_BF16)
#define ONE_PASS_STATS 1
#else
#define ONE_PASS_STATS 0
#endif
void ce_row_stats(__global const real_t* row, int c, __local float2* part, float* mx, float* sum) {
  if (ONE_PASS_STATS) {
    row_max_sum_online(row, c, part, mx, sum);
    barrier(CLK_LOCAL_MEM_FENCE);  // every work-item has read part[0] before the caller's sums reuse part
  } else {
    row_max_sum(row, c, (__local float*)part, mx, sum);
  }
}

// Row i's loss, -sum_j t_ij * log_softmax(logits_i)_j, summed over the work-group and returned to every
// work-item. With a class index only the target's term counts; with soft labels a zero weight adds
// nothing, even against a -Inf logit.
float row_loss_index(__global const real_t* logits, __global const float* target, int c, long i, __local float2* part) {
  float mx, sum;
  ce_row_stats(logits + i * c, c, part, &mx, &sum);
  const float mine = get_local_id(0) == 0 ? -((LD(logits, i * c + (int)target[i]) - mx) - log(sum)) : 0.0f;
  return workgroup_sum(mine, (__local float*)part);
}
float row_loss_soft(__global const real_t* logits, __global const real_t* target, int c, long i, __local float2* part) {
  float mx, sum;
  ce_row_stats(logits + i * c, c, part, &mx, &sum);
  const float lse = log(sum);
  float mine = 0.0f;
  for (int j = get_local_id(0); j < c; j += ROW_WG) {
    const float t = LD(target, i * c + j);
    if (t != 0.0f) mine -= t * ((LD(logits, i * c + j) - mx) - lse);
  }
  return workgroup_sum(mine, (__local float*)part);
}

// The `rows` variant's first pass: one work-group per row, row_loss[i] in float scratch; then
// cross_entropy_total adds them up in one fixed order and divides by b.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_rows_index(__global const real_t* logits, __global const float* target, __global float* row_loss, int b, int c) {
  __local float2 part[ROW_WG];
  const float total = row_loss_index(logits, target, c, get_group_id(0), part);
  if (get_local_id(0) == 0) row_loss[get_group_id(0)] = total;
}
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_rows_soft(__global const real_t* logits, __global const real_t* target, __global float* row_loss, int b, int c) {
  __local float2 part[ROW_WG];
  const float total = row_loss_soft(logits, target, c, get_group_id(0), part);
  if (get_local_id(0) == 0) row_loss[get_group_id(0)] = total;
}
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_total(__global const float* row_loss, __global real_t* loss, int b) {
  __local float part[ROW_WG];
  float s = 0.0f;
  for (int i = get_local_id(0); i < b; i += ROW_WG) s += row_loss[i];
  const float total = workgroup_sum(s, part);
  if (get_local_id(0) == 0) ST(loss, 0, total / (float)b);
}

// d_logits_ij = d_loss / b * (softmax_ij * sum_j t_ij - t_ij): one work-group per row. A class index
// is a one-hot row, whose weights sum to 1.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_backward_index(__global const real_t* logits, __global const float* target, __global const real_t* d_loss,
                                  __global real_t* d_logits, int b, int c) {
  __local float2 part[ROW_WG];
  const long i = get_group_id(0);
  float mx, sum;
  ce_row_stats(logits + i * c, c, part, &mx, &sum);
  const float scale = LD(d_loss, 0) / (float)b;
  const int t = (int)target[i];
  for (int j = get_local_id(0); j < c; j += ROW_WG)
    ST(d_logits, i * c + j, scale * (exp(LD(logits, i * c + j) - mx) / sum - (j == t ? 1.0f : 0.0f)));
}
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_backward_soft(__global const real_t* logits, __global const real_t* target, __global const real_t* d_loss,
                                 __global real_t* d_logits, int b, int c) {
  __local float2 part[ROW_WG];
  const long i = get_group_id(0);
  float mx, sum;
  ce_row_stats(logits + i * c, c, part, &mx, &sum);
  float mine = 0.0f;
  for (int j = get_local_id(0); j < c; j += ROW_WG) mine += LD(target, i * c + j);
  const float weights = workgroup_sum(mine, (__local float*)part);
  const float scale = LD(d_loss, 0) / (float)b;
  for (int j = get_local_id(0); j < c; j += ROW_WG)
    ST(d_logits, i * c + j, scale * (exp(LD(logits, i * c + j) - mx) / sum * weights - LD(target, i * c + j)));
}
