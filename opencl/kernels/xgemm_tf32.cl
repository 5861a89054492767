// matmul in TF32 on NVIDIA's tensor cores (gemm.plan's `tf32` variant, `math tf32`: judged under that
// mode's bound, never chosen over an exact variant): C = op(A) @ op(B) in float32, each input rounded to
// TF32 (10 explicit mantissa bits, `cvt.rna.tf32.f32`: to nearest, ties away from zero) as it enters
// local memory, the products summed in float32 by `mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32`
// (sm_80 and later).
//
// A work-group of MWARPS x NWARPS warps computes an MWG x NWG tile of C; each warp a (MWG / MWARPS) x
// (NWG / NWARPS) part of it as MFR x NFR fragments of 16 x 8 whose accumulators it holds. The depth is
// walked KWG at a time through two local slabs per operand, one barrier per slab: the next slab's global
// loads go to registers while the current one is multiplied, and are stored into the other slab.
//
// Slabs: both operands depth-major, [KWG][XWG + 8] floats (X = M for A, N for B). A lane (groupID gi,
// thread-in-group t) reads A's rows gi, gi + 8 and B's column gi at depths t and t + 4; with rows 8 words
// longer than a multiple of 32 the warp's 32 reads fall in 32 banks. An operand stored depth-contiguous
// (A with ta = 0, B with tb = 1) is read in runs of 4 depths and stored transposed; one stored
// row-contiguous is read and stored in runs of 4 rows. Loads are 16 bytes where the slab lies inside the
// matrix and the leading dimension and batch offset are multiples of 4; otherwise element by element,
// 0 outside the matrix (0 * 0 in the padding).
#include "storage.h"

#ifndef DTYPE_F32
#error "xgemm_tf32: TF32 takes float32 operands (dtypes in gemm.plan)"
#endif
#ifndef MMA_EMULATE
#define MMA_EMULATE 0  // 1: the instruction and the rounding emulated, for devices without them (mma_emulated.plan)
#endif
#ifndef MWG
#define MWG 128
#endif
#ifndef NWG
#define NWG 128
#endif
#ifndef KWG
#define KWG 16
#endif
#ifndef MWARPS
#define MWARPS 2
#endif
#ifndef NWARPS
#define NWARPS 4
#endif

#define WGS (32 * MWARPS * NWARPS)  // work-items per work-group
#define MFR (MWG / MWARPS / 16)     // 16-row fragments per warp
#define NFR (NWG / NWARPS / 8)      // 8-column fragments per warp
#define A_LD (MWG + 8)              // floats from one depth of a slab to the next
#define B_LD (NWG + 8)
#define A_CHUNKS ((MWG * KWG / 4 + WGS - 1) / WGS)  // runs of 4 floats of a slab per work-item (the last
#define B_CHUNKS ((NWG * KWG / 4 + WGS - 1) / WGS)  // round may leave some work-items out)

#if MWG % (16 * MWARPS) != 0 || NWG % (8 * NWARPS) != 0 || KWG % 8 != 0 || MWG % 32 != 0 || NWG % 32 != 0
#error "xgemm_tf32: the tile sizes break its constraints (gemm.plan's require lines imply these: plans_test)"
#endif

// x rounded to TF32: 10 explicit mantissa bits, to nearest with ties away from zero; Inf and NaN kept.
// A finite value within half a TF32 ulp of FLT_MAX rounds to Inf, as the instruction's does.
float to_tf32(float x) {
#if MMA_EMULATE
  const uint u = as_uint(x);
  if ((u & 0x7f800000u) == 0x7f800000u) return x;
  return as_float((u + 0x1000u) & 0xffffe000u);
#else
  uint r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  return as_float(r);
#endif
}

// Chunk l of this work-item's share of one slab (XWG rows of op(X) from x0, KWG depths from k0) into
// r[l]: 4 depths of one row (contiguous_depth) or 4 rows at one depth, rounded to TF32.
#define SLAB_LOADS(NAME, XWG, CHUNKS)                                                                              \
  void NAME(__global const float* p, int ld, int contiguous_depth, int x0, int k0, int xs, int ks, int aligned,     \
            float4 r[CHUNKS]) {                                                                                     \
    const int lid = get_local_id(0);                                                                                \
    const int inside = aligned && x0 + XWG <= xs && k0 + KWG <= ks;                                                \
    _Pragma("unroll") for (int l = 0; l < CHUNKS; ++l) {                                                            \
      const int c = lid + l * WGS;                                                                                  \
      if (CHUNKS * WGS > XWG * KWG / 4 && c >= XWG * KWG / 4) break; /* past the slab */                          \
      /* the run's first element (x, d) and the step between its elements in memory and in (x, d) */              \
      const int x = contiguous_depth ? c / (KWG / 4) : 4 * (c % (XWG / 4));                                         \
      const int d = contiguous_depth ? 4 * (c % (KWG / 4)) : c / (XWG / 4);                                         \
      __global const float* s = contiguous_depth ? p + (long)(x0 + x) * ld + k0 + d : p + (long)(k0 + d) * ld + x0 + x; \
      float4 v;                                                                                                     \
      if (inside) {                                                                                                 \
        v = vload4(0, s);                                                                                           \
      } else {                                                                                                      \
        float e[4];                                                                                                 \
        _Pragma("unroll") for (int q = 0; q < 4; ++q) {                                                             \
          const int xq = x0 + x + (contiguous_depth ? 0 : q), kq = k0 + d + (contiguous_depth ? q : 0);            \
          e[q] = xq < xs && kq < ks ? s[q] : 0.0f;                                                                  \
        }                                                                                                           \
        v = (float4)(e[0], e[1], e[2], e[3]);                                                                       \
      }                                                                                                             \
      r[l] = (float4)(to_tf32(v.x), to_tf32(v.y), to_tf32(v.z), to_tf32(v.w));                                      \
    }                                                                                                               \
  }                                                                                                                 \
  void NAME##_store(int contiguous_depth, const float4 r[CHUNKS], __local float* slab) {                           \
    const int lid = get_local_id(0);                                                                                \
    _Pragma("unroll") for (int l = 0; l < CHUNKS; ++l) {                                                            \
      const int c = lid + l * WGS;                                                                                  \
      if (CHUNKS * WGS > XWG * KWG / 4 && c >= XWG * KWG / 4) break;                                               \
      if (contiguous_depth) {                                                                                       \
        const int x = c / (KWG / 4), d = 4 * (c % (KWG / 4));                                                       \
        slab[d * (XWG + 8) + x] = r[l].x;                                                                           \
        slab[(d + 1) * (XWG + 8) + x] = r[l].y;                                                                     \
        slab[(d + 2) * (XWG + 8) + x] = r[l].z;                                                                     \
        slab[(d + 3) * (XWG + 8) + x] = r[l].w;                                                                     \
      } else {                                                                                                      \
        const int x = 4 * (c % (XWG / 4)), d = c / (XWG / 4);                                                       \
        *(__local float4*)(slab + d * (XWG + 8) + x) = r[l];                                                        \
      }                                                                                                             \
    }                                                                                                               \
  }
SLAB_LOADS(slab_a, MWG, A_CHUNKS)
SLAB_LOADS(slab_b, NWG, B_CHUNKS)

#if MMA_EMULATE
// The instruction computed through local memory by the warp's lanes, for a device without tensor cores:
// so that the slabs, the fragments' addresses and the epilogue are checked anywhere. The fragments as
// PTX's ISA lays them out for m16n8k8 in TF32: lane (gi, t) holds A's (gi, t), (gi + 8, t), (gi, t + 4),
// (gi + 8, t + 4); B's (t, gi), (t + 4, gi); C's rows gi and gi + 8 at columns 2t, 2t + 1. Every
// work-item calls it (work-group barriers).
void mma_emulated(float c[4], const float a[4], const float b[2], int lane, __local float* s) {
  __local float* sa = s;           // A [16 rows][8 depths]
  __local float* sb = s + 16 * 8;  // B [8 depths][8 columns]
  const int gi = lane / 4, t = lane % 4;
  sa[gi * 8 + t] = a[0];
  sa[(gi + 8) * 8 + t] = a[1];
  sa[gi * 8 + t + 4] = a[2];
  sa[(gi + 8) * 8 + t + 4] = a[3];
  sb[t * 8 + gi] = b[0];
  sb[(t + 4) * 8 + gi] = b[1];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = 0; e < 4; ++e) {
    const int row = gi + 8 * (e / 2), col = 2 * t + e % 2;
    for (int d = 0; d < 8; ++d) c[e] += sa[row * 8 + d] * sb[d * 8 + col];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#define MMA_1688(c, a, b, lane, emu) mma_emulated(c, a, b, lane, emu)
#else
#define MMA_1688(c, a, b, lane, emu)                                                                                     \
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
               : "+f"((c)[0]), "+f"((c)[1]), "+f"((c)[2]), "+f"((c)[3])                                               \
               : "r"(as_uint((a)[0])), "r"(as_uint((a)[1])), "r"(as_uint((a)[2])), "r"(as_uint((a)[3])),              \
                 "r"(as_uint((b)[0])), "r"(as_uint((b)[1])))
#endif

// One 8-deep step (depth d0 of the slabs) of a warp whose part starts at the slabs' columns as, bs.
void warp_step(__local const float* as, __local const float* bs, int d0, int lane, float acc[MFR * NFR * 4], __local float* emu) {
  const int gi = lane / 4, t = lane % 4;
  float af[MFR][4], bf[NFR][2];
#pragma unroll
  for (int i = 0; i < MFR; ++i) {
    __local const float* r = as + (d0 + t) * A_LD + 16 * i + gi;
    af[i][0] = r[0];
    af[i][1] = r[8];
    af[i][2] = r[4 * A_LD];
    af[i][3] = r[4 * A_LD + 8];
  }
#pragma unroll
  for (int j = 0; j < NFR; ++j) {
    __local const float* r = bs + (d0 + t) * B_LD + 8 * j + gi;
    bf[j][0] = r[0];
    bf[j][1] = r[4 * B_LD];
  }
#pragma unroll
  for (int i = 0; i < MFR; ++i)
#pragma unroll
    for (int j = 0; j < NFR; ++j) MMA_1688(acc + 4 * (i * NFR + j), af[i], bf[j], lane, emu);
}

// Global size (cdiv(n, NWG) * WGS, cdiv(m, MWG), batches), local (WGS, 1, 1). The arguments of
// xgemm.cl's entry.
__kernel __attribute__((reqd_work_group_size(WGS, 1, 1)))
void xgemm_tf32(int m, int n, int k, __global const float* a, int lda, int ta, long a_batch, __global const float* b, int ldb, int tb,
                long b_batch, __global float* c, int ldc, long c_batch) {
  __local float as[2][KWG * A_LD] __attribute__((aligned(16))), bs[2][KWG * B_LD] __attribute__((aligned(16)));  // 16-byte stores (NVIDIA places a float array at 4 bytes)
#if MMA_EMULATE
  __local float emu_[MWARPS * NWARPS][16 * 8 + 8 * 8];
  __local float* emu = emu_[get_local_id(0) / 32];
#else
  __local float* emu = 0;
#endif
  const long z = get_group_id(2);
  a += z * a_batch, b += z * b_batch, c += z * c_batch;
  const int a_aligned = lda % 4 == 0 && a_batch % 4 == 0, b_aligned = ldb % 4 == 0 && b_batch % 4 == 0;
  const int lid = get_local_id(0), lane = lid % 32, warp = lid / 32;
  const int wm = warp / NWARPS * (MWG / MWARPS), wn = warp % NWARPS * (NWG / NWARPS);
  const int m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
  float acc[MFR * NFR * 4];
#pragma unroll
  for (int i = 0; i < MFR * NFR * 4; ++i) acc[i] = 0.0f;
  float4 ra[A_CHUNKS], rb[B_CHUNKS];
  const int slabs = (k + KWG - 1) / KWG;
  slab_a(a, lda, !ta, m0, 0, m, k, a_aligned, ra);
  slab_b(b, ldb, tb, n0, 0, n, k, b_aligned, rb);
  slab_a_store(!ta, ra, as[0]);
  slab_b_store(tb, rb, bs[0]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = 0; s < slabs; ++s) {
    const int cur = s & 1;
    if (s + 1 < slabs) {  // the next slab's loads in flight while this one is multiplied
      slab_a(a, lda, !ta, m0, (s + 1) * KWG, m, k, a_aligned, ra);
      slab_b(b, ldb, tb, n0, (s + 1) * KWG, n, k, b_aligned, rb);
    }
#pragma unroll
    for (int d0 = 0; d0 < KWG; d0 += 8) warp_step(as[cur] + wm, bs[cur] + wn, d0, lane, acc, emu);
    if (s + 1 < slabs) {  // the other slab: its last readers passed the barrier before
      slab_a_store(!ta, ra, as[cur ^ 1]);
      slab_b_store(tb, rb, bs[cur ^ 1]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // Fragment (i, j): rows gi and gi + 8, columns 2t and 2t + 1 of its 16 x 8; neighbours as one 8-byte
  // store where ldc and the batch offset are even.
  const int gi = lane / 4, t = lane % 4, pairs = ldc % 2 == 0 && c_batch % 2 == 0;
#pragma unroll
  for (int i = 0; i < MFR; ++i)
#pragma unroll
    for (int j = 0; j < NFR; ++j)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = m0 + wm + 16 * i + 8 * h + gi, col = n0 + wn + 8 * j + 2 * t;
        if (row >= m) continue;
        const float v0 = acc[4 * (i * NFR + j) + 2 * h], v1 = acc[4 * (i * NFR + j) + 2 * h + 1];
        __global float* at = c + (long)row * ldc + col;
        if (pairs && col + 1 < n) {
          vstore2((float2)(v0, v1), 0, at);
        } else {
          if (col < n) at[0] = v0;
          if (col + 1 < n) at[1] = v1;
        }
      }
}
