// cross_entropy_bwd's `held` variant (f16 and bf16, class indices): a long row held in local memory at
// its stored size, read from memory once. `resident` holds a row in registers as float4s: in 16 bits its
// conversions took it to 254 registers on the H100, one work-group a multiprocessor, slower than `quads`,
// which reads the row twice (60% of the copy bandwidth over 4096 x 32000). Here a work-item
// keeps HELD_QUADS quads as loaded (8 bytes each) in local memory, quad lid + u * ROW_WG in slot
// u * ROW_WG + lid (its own: no barrier between the store and the load), and converts them again for the
// outputs. The slots and the statistics' ROW_WG pairs fit 48 KiB (the plan's require), so four
// work-groups share a multiprocessor's 228 KiB, if their registers let them: the plan caps them at 64
// (MAX_REGISTERS, docs/kernel-abi.md; uncapped, ptxas gives 80, three work-groups, and gave f16 100,
// two, before the tail's loads were grouped). REG_QUADS more quads a work-item may stay in registers
// as loaded (quad lid + u * ROW_WG for u from HELD_QUADS on). A row longer than both hold (4 *
// (HELD_QUADS + REG_QUADS) * ROW_WG values: 23552 at the defaults) streams its remaining quads through
// the statistics as `quads` does and reads them again for the outputs. On the H100 over 4096 x 32000
// (H100, 2026-11-28) nine quads in registers, enough to read the row once, were slower
// than the slots alone (bf16 0.2885 against 0.2819 ms, f16 0.2942 against 0.2627): hence REG_QUADS=0.
#ifndef HELD_QUADS
#define HELD_QUADS 23
#endif
#ifndef REG_QUADS
#define REG_QUADS 0
#endif
#include "softmax_quads.cl"

// The online statistics of the held quads into *m and *s, each group of QUAD_UNROLL loads in flight
// before any is used (stream_stats's form) and kept as loaded: quad u in its slot, or in regs[u - HELD_QUADS].
void held_stats(__global const real_t* body, int quads, __local raw4_t* held, raw4_t* regs, float* m, float* s) {
  const int lid = get_local_id(0);
#pragma unroll
  for (int u0 = 0; u0 < HELD_QUADS + REG_QUADS; u0 += QUAD_UNROLL) {
    float4 v[QUAD_UNROLL];
#pragma unroll
    for (int u = 0; u < QUAD_UNROLL; ++u) {
      const int q = lid + (u0 + u) * ROW_WG;
      v[u] = (float4)(-INFINITY);
      if (u0 + u < HELD_QUADS + REG_QUADS && q < quads) {
        const raw4_t r = LD4_RAW(body + 4 * q);
        if (u0 + u < HELD_QUADS) held[(u0 + u) * ROW_WG + lid] = r;
        else regs[u0 + u - HELD_QUADS] = r;
        v[u] = RAW4_FLOAT(r);
      }
    }
    group_stats(v, m, s);
  }
}

// STORE_RESIDENT (softmax_quads.cl) over the slots and registers: v is held + lid, its quad u a slot
// ROW_WG apart, then regs (u is a constant in the unrolled loop: the choice folds away).
#undef RESIDENT_QUAD
#define RESIDENT_QUAD(v, u) RAW4_FLOAT((u) < HELD_QUADS ? (v)[(u) * ROW_WG] : regs[(u) < HELD_QUADS ? 0 : (u) - HELD_QUADS])
#undef ROW_QUADS
#define ROW_QUADS (HELD_QUADS + REG_QUADS)

// The outputs of the quad whose first value is class j: scale * (softmax - [class == t]), as CE_GRAD4
// with one reciprocal a row for a division a value (4-5% faster on the H100, whose multi-function unit
// does the exponentials as well; H100, 2026-11-28), and the one-hot's compares made only
// in the quad that holds t (one a row): the same roundings, fewer instructions a value (bf16 0.966x
// paired on the H200, H200, 2026-11-28).
inline float4 held_grad4(float4 v, int j, float mx, float inv_sum, float scale, int t) {
  const float4 y = ROW_EXP(v - mx) * inv_sum;
  if ((uint)(t - j) < 4u) return scale * (y - (float4)(t == j ? 1.0f : 0.0f, t == j + 1 ? 1.0f : 0.0f, t == j + 2 ? 1.0f : 0.0f, t == j + 3 ? 1.0f : 0.0f));
  return scale * y;
}

// A row's statistics (its maximum *mx and sum *sum of exp(x - max)), its quads left in the slots (and
// regs) and its unaligned values in *edge, at most three before its first quad and three after its last.
void held_row_stats(__global const real_t* row, int c, __local raw4_t* held, raw4_t* regs, __local float2* part, float2* edge,
                    float* mx, float* sum) {
  const int lid = get_local_id(0), head = head_of(row, c);
  const int quads = (c - head) / 4, tail = head + 4 * quads;
  __global const real_t* body = row + head;
  *edge = (float2)(lid < head ? LD(row, lid) : -INFINITY, tail + lid < c ? LD(row, tail + lid) : -INFINITY);
  float m = fmax(edge->x, edge->y);
  const float4 e = exp_terms((float4)(edge->x, edge->y, -INFINITY, -INFINITY), m);
  float s = e.x + e.y;
  held_stats(body, quads, held, regs, &m, &s);
  stream_stats(body, lid + ROW_QUADS * ROW_WG, quads, &m, &s);  // the quads past the slots and registers, if any
  group_max_sum(part, m, s, mx, sum);
}

// d_logits_ij = d_loss / b * (softmax_ij - [j == target_i]), as cross_entropy_backward_index_quads.
__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void cross_entropy_backward_index_held(__global const real_t* logits, __global const float* target, __global const real_t* d_loss,
                                       __global real_t* d_logits, int b, int c) {
  __local raw4_t held[HELD_QUADS * ROW_WG];
  raw4_t regs[REG_QUADS > 0 ? REG_QUADS : 1];
  __local float2 part[ROW_WG];
  const long i = get_group_id(0);
  __global const real_t* row = logits + i * c;
  float2 edge;
  float mx, sum;
  held_row_stats(row, c, held, regs, part, &edge, &mx, &sum);
  const int lid = get_local_id(0);
  const float scale = LD(d_loss, 0) / (float)b, inv_sum = 1.0f / sum;
  const int t = (int)target[i];
#define HELD_GRAD4(v, j) held_grad4((v), (j), mx, inv_sum, scale, t)
#define HELD_GRAD1(v, j) (scale * (ROW_EXP((v) - mx) * inv_sum - ((j) == t ? 1.0f : 0.0f)))
  __local const raw4_t* mine = held + lid;
  STORE_RESIDENT(row, d_logits + i * c, c, mine, edge, HELD_GRAD4, HELD_GRAD1);
}

// softmax's and log_softmax's `held` variants (f16 and bf16): the same row held at its stored size, with
// the forwards' outputs: exp(x - max) times one reciprocal a row, or (x - max) - log(sum) (`logs`, a
// constant at each call, so that each kernel keeps one of the two).
inline void forward_row_held(__global const real_t* x_row, __global real_t* y_row, int n, __local raw4_t* held, __local float2* part,
                             const bool logs) {
  raw4_t regs[REG_QUADS > 0 ? REG_QUADS : 1];
  float2 edge;
  float mx, sum;
  held_row_stats(x_row, n, held, regs, part, &edge, &mx, &sum);
  const float inv_sum = 1.0f / sum, lse = log(sum);
#define HELD_FORWARD(v, j) (logs ? ((v) - mx) - lse : ROW_EXP((v) - mx) * inv_sum)
  __local const raw4_t* mine = held + get_local_id(0);
  STORE_RESIDENT(x_row, y_row, n, mine, edge, HELD_FORWARD, HELD_FORWARD);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void softmax_forward_held(__global const real_t* x, __global real_t* y, int m, int n) {
  __local raw4_t held[HELD_QUADS * ROW_WG];
  __local float2 part[ROW_WG];
  const long row = get_group_id(0);
  forward_row_held(x + row * n, y + row * n, n, held, part, false);
}

__kernel __attribute__((reqd_work_group_size(ROW_WG, 1, 1)))
void log_softmax_forward_held(__global const real_t* x, __global real_t* y, int m, int n) {
  __local raw4_t held[HELD_QUADS * ROW_WG];
  __local float2 part[ROW_WG];
  const long row = get_group_id(0);
  forward_row_held(x + row * n, y + row * n, n, held, part, true);
}
