// Long rows (vocabulary logits) read four values a load: the `quads` variants of softmax, log_softmax,
// cross_entropy and cross_entropy_bwd (class indices). The `wide` kernels of softmax.cl walk a row one
// value a work-item at a time, and each step of their online statistics waits for its load: on the H100
// cross_entropy_bwd over 8192 x 50257 ran at a third of the copy bandwidth. Here each work-item loads
// QUAD_UNROLL quads (float4, or four 16-bit values in one 8-byte load) before it uses any, and the
// running maximum is rescaled once per group of loads, not once per value.
#ifndef QUAD_UNROLL
#define QUAD_UNROLL 2
#endif
#include "softmax.cl"

// ROW_EXP: the exponential of the online statistics (online_rescale, exp_terms), of softmax's outputs
// and of held's, and of log_softmax_bwd's resident outputs. FAST_EXP=1 (a plan define: the `held`
// variants' default, a tuning choice elsewhere) takes it as native_exp2(x * log2(e)): on NVIDIA a
// multiply and one MUFU.EX2, where exp takes about eight instructions, and the 16-bit kernels are bound
// by their instructions as much as by memory. Its error: ex2.approx's ~2^-22 relative, and the
// product's rounding, |x| u relative (u = 2^-24), where the error models (check/error_models/softmax.cpp)
// give exp 3 ulp and its argument's rounding |x| u. The extra |x| u is at most 104 u (exp(x) underflows
// below x = -104): under 3% of the n u a term that each model gives the row sum every exponential here
// meets, n >= 4096 in every variant that takes FAST_EXP (their `when`). -Inf, +Inf and NaN map as exp
// maps them.
#if defined(FAST_EXP) && FAST_EXP
#define ROW_EXP(x) native_exp2((x) * M_LOG2E_F)
#else
#define ROW_EXP(x) exp(x)
#endif

// A quad is 16 bytes in float32, 8 in f16 and bf16; LD4/ST4 need it aligned. A row starts anywhere
// (i * n elements from the buffer), so the elements before its first boundary go one by one.
#define QUAD_BYTES (4 * sizeof(real_t))
int head_of(__global const real_t* row, int n) {
  const int misaligned = (int)((ulong)row % QUAD_BYTES);
  return min(n, (int)((QUAD_BYTES - misaligned) % QUAD_BYTES / sizeof(real_t)));
}

// The online statistics (softmax.cl's row_max_sum_online) over a group of values: the maximum grows
// to the group's (s rescaled once), then each value adds exp(v - m). Edge values as there: a NaN makes
// s NaN (fmax skips it, exp does not); -Inf adds nothing; +Inf makes exp(Inf - Inf) NaN, as in the
// reference's exp(x - max).
void online_rescale(float* m, float* s, float group_max) {
  if (group_max > *m) {
    *s = *s == 0.0f ? 0.0f : *s * ROW_EXP(*m - group_max);
    *m = group_max;
  }
}
// exp(v - m) for values v <= m (or NaN), as the reference's: a -Inf value adds 0. Where m is -Inf, every
// value is -Inf or NaN, and exp(-Inf - -Inf) would be NaN: there m counts as 0 (exp(-Inf) = 0, NaN
// stays NaN). One compare a quad, where a select a value took two instructions (FSETP, FSEL) of the
// statistics' ~14 a value (the held kernel's SASS, H200, 2026-11-28).
float4 exp_terms(float4 v, float m) { return ROW_EXP(v - (m == -INFINITY ? 0.0f : m)); }
float quad_max(float4 v) { return fmax(fmax(v.x, v.y), fmax(v.z, v.w)); }

// A group of QUAD_UNROLL quads added to the online statistics *m and *s: the maximum rescaled once.
void group_stats(const float4* v, float* m, float* s) {
  float group_max = quad_max(v[0]);
#pragma unroll
  for (int u = 1; u < QUAD_UNROLL; ++u) group_max = fmax(group_max, quad_max(v[u]));
  online_rescale(m, s, group_max);
#pragma unroll
  for (int u = 0; u < QUAD_UNROLL; ++u) {
    const float4 t = exp_terms(v[u], *m);
    *s += (t.x + t.y) + (t.z + t.w);
  }
}

// The online statistics of quads q0, q0 + ROW_WG, ... below quads, added to *m and *s: QUAD_UNROLL
// loads in flight before any is used, the maximum rescaled once per group.
void stream_stats(__global const real_t* body, int q0, int quads, float* m, float* s) {
  int q = q0;
  for (; q + (QUAD_UNROLL - 1) * ROW_WG < quads; q += QUAD_UNROLL * ROW_WG) {
    float4 v[QUAD_UNROLL];
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) v[u] = LD4(body + 4 * (q + u * ROW_WG));
    group_stats(v, m, s);
  }
  for (; q < quads; q += ROW_WG) {
    const float4 v = LD4(body + 4 * q);
    online_rescale(m, s, quad_max(v));
    const float4 t = exp_terms(v, *m);
    *s += (t.x + t.y) + (t.z + t.w);
  }
}

// Row statistics into *mx and *sum for every work-item; part holds ROW_WG float2.
void row_stats_quads(__global const real_t* row, int n, __local float2* part, float* mx, float* sum) {
  const int lid = get_local_id(0), head = head_of(row, n);
  const int quads = (n - head) / 4, tail = head + 4 * quads;
  __global const real_t* body = row + head;
  float m = -INFINITY, s = 0.0f;
  if (lid < head || tail + lid < n) {  // at most three values before the first quad and three after the last
    const float4 v = (float4)(lid < head ? LD(row, lid) : -INFINITY, tail + lid < n ? LD(row, tail + lid) : -INFINITY,
                              -INFINITY, -INFINITY);
    online_rescale(&m, &s, quad_max(v));
    const float4 t = exp_terms(v, m);
    s += t.x + t.y;
  }
  stream_stats(body, lid, quads, &m, &s);
  group_max_sum(part, m, s, mx, sum);
  barrier(CLK_LOCAL_MEM_FENCE);  // every work-item has read part[0] before part is used again
}

// out[j] = F(x[j], j) over a row, a quad at a time where x's row and out's row are aligned alike (else
// one value at a time). F4 takes a float4 and the index of its first value, F1 a float and its index.
#define FOR_ROW_QUADS(x_row, out_row, n, F4, F1)                                                      \
  do {                                                                                                \
    const int lid_ = get_local_id(0);                                                                 \
    const int head_ = (ulong)(x_row) % QUAD_BYTES == (ulong)(out_row) % QUAD_BYTES ? head_of(x_row, n) : n; \
    const int quads_ = (n - head_) / 4, tail_ = head_ + 4 * quads_;                                   \
    for (int j = lid_; j < head_; j += ROW_WG) ST(out_row, j, F1(LD(x_row, j), j));                   \
    for (int q = lid_; q < quads_; q += ROW_WG) {                                                     \
      const int j = head_ + 4 * q;                                                                    \
      ST4(out_row + j, F4(LD4(x_row + j), j));                                                        \
    }                                                                                                 \
    for (int j = tail_ + lid_; j < n; j += ROW_WG) ST(out_row, j, F1(LD(x_row, j), j));               \
  } while (0)

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_forward_quads(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float2 part[ROW_WG];
  const long row = get_group_id(0);
  float mx, sum;
  row_stats_quads(x + row * n, n, part, &mx, &sum);
#define SOFTMAX4(v, j) (ROW_EXP((v) - mx) / sum)
#define SOFTMAX1(v, j) (ROW_EXP((v) - mx) / sum)
  FOR_ROW_QUADS(x + row * n, y + row * n, n, SOFTMAX4, SOFTMAX1);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_softmax_forward_quads(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float2 part[ROW_WG];
  const long row = get_group_id(0);
  float mx, sum;
  row_stats_quads(x + row * n, n, part, &mx, &sum);
  const float lse = log(sum);
#define LOG_SOFTMAX(v, j) (((v) - mx) - lse)
  FOR_ROW_QUADS(x + row * n, y + row * n, n, LOG_SOFTMAX, LOG_SOFTMAX);
}

// cross_entropy with class indices: row i's loss is -((x[target] - max) - log(sum)); the rows' losses
// are then added up by cross_entropy_total (softmax.cl) in one fixed order.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_rows_index_quads(__global const real_t* logits, __global const float* target, __global float* row_loss, int b,
                                    int c) {
  __local float2 part[ROW_WG];
  const long i = get_group_id(0);
  float mx, sum;
  row_stats_quads(logits + i * c, c, part, &mx, &sum);
  if (get_local_id(0) == 0) row_loss[i] = -((LD(logits, i * c + (int)target[i]) - mx) - log(sum));
}

// d_logits_ij = d_loss / b * (softmax_ij - [j == target_i]). In CE_GRAD4 a true vector comparison is
// -1, so adding it subtracts the one-hot.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_backward_index_quads(__global const real_t* logits, __global const float* target, __global const real_t* d_loss,
                                        __global real_t* d_logits, int b, int c) {
  __local float2 part[ROW_WG];
  const long i = get_group_id(0);
  float mx, sum;
  row_stats_quads(logits + i * c, c, part, &mx, &sum);
  const float scale = LD(d_loss, 0) / (float)b;
  const int t = (int)target[i];
#define CE_GRAD4(v, j) (scale * (exp((v) - mx) / sum + convert_float4((int4)(j) + (int4)(0, 1, 2, 3) == (int4)(t))))
#define CE_GRAD1(v, j) (scale * (exp((v) - mx) / sum - ((j) == t ? 1.0f : 0.0f)))
  FOR_ROW_QUADS(logits + i * c, d_logits + i * c, c, CE_GRAD4, CE_GRAD1);
}

// ---- rows held in registers (the `resident` variants) ----------------------------------------------
// The statistics pass and the output pass above each read the row, so softmax and the backward move
// 1.5 times the bytes of their roofline. Here a work-item loads its ROW_QUADS quads of the row (quad
// lid + u * ROW_WG) into registers once, all before any is used; the row's unaligned values sit in
// edge (one before the first quad, one after the last, per work-item). A row longer than the registers
// hold (4 * ROW_QUADS * ROW_WG values: 32768 at the defaults) streams its remaining quads through the
// statistics as `quads` does and reads them again for the outputs: at the defaults a 50257-wide row reads
// 1.35 times its bytes, where `quads` reads it twice (the H100's `vocab` entry holds it whole).
#ifndef ROW_QUADS
#define ROW_QUADS 32
#endif
void resident_stats(__global const real_t* row, int n, float4* v, float2* edge, __local float2* part, float* mx, float* sum) {
  const int lid = get_local_id(0), head = head_of(row, n);
  const int quads = (n - head) / 4, tail = head + 4 * quads;
  __global const real_t* body = row + head;
#pragma unroll
  for (int u = 0; u < ROW_QUADS; ++u) {
    const int q = lid + u * ROW_WG;
    v[u] = q < quads ? LD4(body + 4 * q) : (float4)(-INFINITY);
  }
  *edge = (float2)(lid < head ? LD(row, lid) : -INFINITY, tail + lid < n ? LD(row, tail + lid) : -INFINITY);
  float m = fmax(edge->x, edge->y);
#pragma unroll
  for (int u = 0; u < ROW_QUADS; ++u) m = fmax(m, quad_max(v[u]));
  const float4 e = exp_terms((float4)(edge->x, edge->y, -INFINITY, -INFINITY), m);
  float s = e.x + e.y;
#pragma unroll
  for (int u = 0; u < ROW_QUADS; ++u) {
    const float4 t = exp_terms(v[u], m);
    s += (t.x + t.y) + (t.z + t.w);
  }
  stream_stats(body, lid + ROW_QUADS * ROW_WG, quads, &m, &s);  // the quads past the registers, if any
  group_max_sum(part, m, s, mx, sum);
}

// A quad of outputs at out_row + j: one store where out's row is aligned as x's, else value by value.
#define ST_QUAD(out_row, j, o, aligned)                                                            \
  do {                                                                                             \
    const float4 o4_ = (o);                                                                        \
    if (aligned) {                                                                                 \
      ST4((out_row) + (j), o4_);                                                                   \
    } else {                                                                                       \
      ST(out_row, j, o4_.x), ST(out_row, (j) + 1, o4_.y), ST(out_row, (j) + 2, o4_.z), ST(out_row, (j) + 3, o4_.w); \
    }                                                                                              \
  } while (0)

// out = F(value, index) from the registers: quads as float4 stores where out's row is aligned as x's
// (else value by value), and the edge values one by one. RESIDENT_QUAD(v, u) is quad u of the work-item's
// held values as a float4: v[u] from registers (softmax_held.cl redefines it: from local memory).
#define RESIDENT_QUAD(v, u) (v)[u]
#define STORE_RESIDENT(x_row, out_row, n, v, edge, F4, F1)                                             \
  do {                                                                                                 \
    const int lid_ = get_local_id(0), head_ = head_of(x_row, n);                                       \
    const int quads_ = (n - head_) / 4, tail_ = head_ + 4 * quads_;                                    \
    const bool aligned_ = (ulong)(x_row) % QUAD_BYTES == (ulong)(out_row) % QUAD_BYTES;               \
    if (lid_ < head_) ST(out_row, lid_, F1(edge.x, lid_));                                             \
    if (tail_ + lid_ < n) ST(out_row, tail_ + lid_, F1(edge.y, tail_ + lid_));                         \
    _Pragma("unroll") for (int u = 0; u < ROW_QUADS; ++u) {                                            \
      const int j = head_ + 4 * (lid_ + u * ROW_WG);                                                   \
      if (lid_ + u * ROW_WG < quads_) {                                                                \
        const float4 o_ = F4(RESIDENT_QUAD(v, u), j);                                                  \
        ST_QUAD(out_row, j, o_, aligned_);                                                             \
      }                                                                                                \
    }                                                                                                  \
    /* past the registers: QUAD_UNROLL loads before their stores (the compiler may not hoist a load */ \
    /* over a store to a buffer that may alias); a load a store, each waited a whole round trip */     \
    int q_ = lid_ + ROW_QUADS * ROW_WG;                                                                \
    for (; q_ + (QUAD_UNROLL - 1) * ROW_WG < quads_; q_ += QUAD_UNROLL * ROW_WG) {                     \
      float4 r_[QUAD_UNROLL];                                                                          \
      _Pragma("unroll") for (int u = 0; u < QUAD_UNROLL; ++u) r_[u] = LD4(x_row + head_ + 4 * (q_ + u * ROW_WG)); \
      _Pragma("unroll") for (int u = 0; u < QUAD_UNROLL; ++u) {                                        \
        const int j = head_ + 4 * (q_ + u * ROW_WG);                                                   \
        ST_QUAD(out_row, j, F4(r_[u], j), aligned_);                                                   \
      }                                                                                                \
    }                                                                                                  \
    for (; q_ < quads_; q_ += ROW_WG) {                                                                \
      const int j = head_ + 4 * q_;                                                                    \
      ST_QUAD(out_row, j, F4(LD4(x_row + j), j), aligned_);                                          \
    }                                                                                                  \
  } while (0)

// softmax and log_softmax take WG_ROWS rows a work-group (local size ROW_WG x WG_ROWS; dimension 1 is
// the row): short rows at 32 work-items each would otherwise fill a multiprocessor's work-group slots
// before its threads. Rows past the last take part in the barriers with no values (length 0).
#ifndef WG_ROWS
#define WG_ROWS 1
#endif
__kernel __attribute__((reqd_work_group_size(ROW_WG, WG_ROWS, 1)))
void softmax_forward_resident(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float2 part[WG_ROWS][ROW_WG];
  const long row = get_global_id(1);
  const int len = row < m ? n : 0;
  float4 v[ROW_QUADS];
  float2 edge;
  float mx, sum;
  resident_stats(x + row * n, len, v, &edge, part[get_local_id(1)], &mx, &sum);
  STORE_RESIDENT(x + row * n, y + row * n, len, v, edge, SOFTMAX4, SOFTMAX1);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, WG_ROWS, 1)))
void log_softmax_forward_resident(__global const real_t* x, __global real_t* y, int m, int n) {
  __local float2 part[WG_ROWS][ROW_WG];
  const long row = get_global_id(1);
  const int len = row < m ? n : 0;
  float4 v[ROW_QUADS];
  float2 edge;
  float mx, sum;
  resident_stats(x + row * n, len, v, &edge, part[get_local_id(1)], &mx, &sum);
  const float lse = log(sum);
  STORE_RESIDENT(x + row * n, y + row * n, len, v, edge, LOG_SOFTMAX, LOG_SOFTMAX);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_backward_index_resident(__global const real_t* logits, __global const float* target, __global const real_t* d_loss,
                                           __global real_t* d_logits, int b, int c) {
  __local float2 part[ROW_WG];
  const long i = get_group_id(0);
  float4 v[ROW_QUADS];
  float2 edge;
  float mx, sum;
  resident_stats(logits + i * c, c, v, &edge, part, &mx, &sum);
  const float scale = LD(d_loss, 0) / (float)b;
  const int t = (int)target[i];
  STORE_RESIDENT(logits + i * c, d_logits + i * c, c, v, edge, CE_GRAD4, CE_GRAD1);
}
