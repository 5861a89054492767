// matmul for few rows (decode: m <= 64, gemm.plan's `skinny`; few columns, n <= 64, as the transposed
// product C^T = op(B)^T op(A)^T: `skinny_n`): C = op(A) @ op(B) where op(B), k x n, is
// the large operand and is read once, at full width, by work-groups that each stream one slice of its
// depth for a run of columns; A's rows at that slice wait in local memory. Two steps:
//   xgemm_skinny      the products over one depth slice (KC deep) into a float32 partial of C;
//   xgemm_skinny_sum  the slices' partials summed in slice order (deterministic) and stored.
// Splitting the depth gives a decode shape (m = 16, k = 4096, n = 11008) enough work-groups to fill a
// GPU; a dot product in float32 in any order stays within the check's bound.
//
// B's two layouts take two loops: row-contiguous (tb = 0, B[k][n]) a work-item a run of 4 columns, 16
// bytes a depth, neighbours reading neighbouring runs; depth-contiguous (tb = 1, B[n][k], a linear
// layer's weight) KL work-items a column, each 16 bytes of depth at a time, their partial sums added in
// lane order through local memory.
#include "storage.h"

#ifndef WGS
#define WGS 128  // work-items per work-group
#endif
#ifndef MR
#define MR 16  // rows of C a work-group computes (the launch's second dimension covers m)
#endif
#ifndef KC
#define KC 256  // depths a slice (the launch's third dimension covers the slices, then the batches)
#endif
#ifndef KL
#define KL 8  // tb = 1: work-items along a column's depth
#endif

#if KC % (4 * KL) != 0 || WGS % KL != 0 || WGS % 32 != 0
#error "xgemm_skinny: the sizes break its constraints (gemm.plan's require lines imply these: plans_test)"
#endif

// Global (cdiv(n, tb ? WGS / KL : 4 * WGS) * WGS, cdiv(m, MR), batches * cdiv(k, KC)), local (WGS, 1, 1).
// part: [slices][batches][m][n] floats.
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_skinny(int m, int n, int k, __global const real_t* a, int lda, int ta, long a_batch, __global const real_t* b, int ldb, int tb,
                  long b_batch, __global float* part, int batches) {
  __local float as[MR * KC];        // A's rows r0 .. r0 + rows - 1 at the slice's depths, 0 past k
  __local float sums[WGS * MR];     // tb = 1: each work-item's partial sums, for its column's first lane
  const int lid = get_local_id(0), slices = (k + KC - 1) / KC;
  const int slice = get_group_id(2) % slices, z = get_group_id(2) / slices;
  const int r0 = get_group_id(1) * MR, k0 = slice * KC, kn = min(KC, k - k0);
  const int rows = min(MR, m - r0);  // the same for the whole work-group: no products for rows past m
  a += z * a_batch, b += z * b_batch;
  for (int e = lid; e < rows * KC; e += WGS) {  // rows past m are never read
    const int r = e / KC, d = e % KC, row = r0 + r, depth = k0 + d;
    as[e] = row < m && depth < k ? LD(a, ta ? (long)depth * lda + row : (long)row * lda + depth) : 0.0f;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global float* out = part + ((long)slice * batches + z) * m * n;
  if (!tb) {
    const int col = get_group_id(0) * 4 * WGS + 4 * lid;
    float4 acc[MR];
#pragma unroll
    for (int r = 0; r < MR; ++r) acc[r] = (float4)(0.0f);
    __global const real_t* p = b + (long)k0 * ldb + col;
    if (col + 4 <= n && ldb % 4 == 0 && b_batch % 4 == 0) {
      #pragma unroll 4  // several rows' loads in flight: the kernel streams B
      for (int d = 0; d < kn; ++d, p += ldb) {
        const float4 v = LD4(p);
#pragma unroll
        for (int r = 0; r < MR; ++r)
          if (r < rows) acc[r] += as[r * KC + d] * v;
      }
    } else if (col < n) {
      for (int d = 0; d < kn; ++d, p += ldb) {
        const float4 v = (float4)(LD(p, 0), col + 1 < n ? LD(p, 1) : 0.0f, col + 2 < n ? LD(p, 2) : 0.0f, col + 3 < n ? LD(p, 3) : 0.0f);
#pragma unroll
        for (int r = 0; r < MR; ++r)
          if (r < rows) acc[r] += as[r * KC + d] * v;
      }
    }
#pragma unroll
    for (int r = 0; r < MR; ++r) {
      if (r >= rows) continue;
      __global float* o = out + (long)(r0 + r) * n + col;
      const float e[4] = {acc[r].x, acc[r].y, acc[r].z, acc[r].w};
      for (int q = 0; q < 4 && col + q < n; ++q) o[q] = e[q];
    }
  } else {
    const int col = get_group_id(0) * (WGS / KL) + lid / KL, lane = lid % KL;
    float acc[MR];
#pragma unroll
    for (int r = 0; r < MR; ++r) acc[r] = 0.0f;
    if (col < n) {
      __global const real_t* p = b + (long)col * ldb + k0;
      const int aligned = ldb % 4 == 0 && b_batch % 4 == 0;
      #pragma unroll 4
      for (int d = 4 * lane; d < kn; d += 4 * KL) {
        float4 v;
        if (aligned && d + 4 <= kn)
          v = LD4(p + d);
        else
          v = (float4)(LD(p, d), d + 1 < kn ? LD(p, d + 1) : 0.0f, d + 2 < kn ? LD(p, d + 2) : 0.0f, d + 3 < kn ? LD(p, d + 3) : 0.0f);
#pragma unroll
        for (int r = 0; r < MR; ++r) {
          if (r >= rows) continue;
          const float4 w = vload4(0, as + r * KC + d);
          acc[r] += w.x * v.x;
          acc[r] += w.y * v.y;
          acc[r] += w.z * v.z;
          acc[r] += w.w * v.w;
        }
      }
    }
#pragma unroll
    for (int r = 0; r < MR; ++r)
      if (r < rows) sums[r * WGS + lid] = acc[r];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lane == 0 && col < n) {
      for (int r = 0; r < rows; ++r) {
        float s = 0.0f;
        for (int l = 0; l < KL; ++l) s += sums[r * WGS + lid + l];
        out[(long)(r0 + r) * n + col] = s;
      }
    }
  }
}

// C as the sum of the slices' partials (batches x rows x cols floats each) in slice order, in the
// storage format: C is the partials' layout, or with transposed = 1 its transpose (C^T was computed:
// skinny_n, a product with few columns). Global roundup(count, 256), local 256.
__kernel void xgemm_skinny_sum(__global const float* part, __global real_t* c, long count, int slices, int rows, int cols, int transposed) {
  const long i = get_global_id(0);
  if (i >= count) return;
  float s = 0.0f;
  for (int q = 0; q < slices; ++q) s += part[q * count + i];
  const long per = (long)rows * cols, z = i / per;
  const int r = (int)(i % per / cols), col = (int)(i % cols);
  ST(c, transposed ? z * per + (long)col * rows + r : i, s);
}
