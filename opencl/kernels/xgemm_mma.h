// The tensor-core GEMM core (xgemm_mma.cl and xgemm_mma_bias_act.cl hold its entry points; gemm.plan's
// `mma` variants, which `needs nvidia_sm80`): C = op(A) @ op(B) in f16 or bf16 with float accumulation,
// through inline PTX `mma.sync.aligned.m16n8k16` (sm_80 and later; NVIDIA's OpenCL compiler passes
// `asm` through to ptxas).
//
// A work-group of MWARPS x NWARPS warps computes an MWG x NWG tile of C; each warp a (MWG / MWARPS) x
// (NWG / NWARPS) part of it as MFR x NFR fragments of 16 x 8, whose accumulators it holds in registers.
// The depth is walked KWG at a time through local memory, one barrier per slab, in one of two main
// loops (the define ASYNC, tuned per variant in the plans):
//   ASYNC=1 (xgemm_mma_async.h, which says how): cp.async into a ring of STAGES slabs, ldmatrix for
//     the fragments; fewer registers, two work-groups a multiprocessor. The mma GEMM variants' loop.
//     With WGMMA=1 (xgemm_mma_wgmma.h, Hopper only) the same copies fill swizzled slabs that
//     `wgmma.mma_async` reads itself, a warpgroup a 64 rows: the wgmma variants.
//   ASYNC=0 (this file, below): the register ring. The next slabs' global loads go to registers
//     (PREFETCH slabs of them) while the current slab is multiplied, and are stored into the other of
//     two local slabs in the layout the fragments take (as xgemm.h). mma_igemm's tune kept it.
//
// ASYNC=0: the slabs hold both operands depth-contiguous, as 32-bit words of two neighbouring depths, which is
// what the instruction's A (row) and B (col) fragments take; a group is 16 depths (8 words).
//   B: [NWG columns][KWG depths]. Within a group the words are stored in the order 0 4 1 5 2 6 3 7, so
//   that a lane's two words (depths 2t and 2t + 8, lane t = 0..3) are one 64-bit load. Rows are
//   KWG / 2 words apart, unpadded; a row's groups are swizzled (GROUP_AT: group g of row r at
//   g ^ ((r / (64 / KWG)) % (KWG / 16))) so that a half-warp's loads, 4 rows x 4 lanes, hit 32 banks.
//   A: in the fragment's own order, so that a lane's four words are one 128-bit load into the register
//   quad the instruction takes (with B's order the compiler spent three moves an mma assembling them:
//   ncu and the SASS, H100, 2026-11-26). Rows r and r + 8 of each 16-row
//   tile share a super-row of KWG words (A_SR), where word w of row r sits at A_POS: per group, slot
//   w % 4 holds (row r, w), (row r + 8, w), (row r, w + 4), (row r + 8, w + 4), which is the quad
//   (a0a1, a2a3, a4a5, a6a7) of lane 4 gi + t for t = w % 4. Slots are swizzled by the super-row
//   ((sr >> 1) & 3) and groups swapped on odd super-rows, so that a quarter-warp's 128-bit loads (2
//   super-rows x 4 slots) and the slab stores (2-way at worst) spread over the banks.
// An operand stored depth-contiguous in memory (A with ta = 0, B with tb = 1) is copied as it is; one
// stored row-contiguous (A with ta = 1, B with tb = 0) is read as pairs of depth rows and interleaved
// into words as it is stored.
//
// Accuracy: products of two 16-bit numbers are exact in float, and the sums are float (the tensor
// core's accumulation order within a 16-deep step is its own: any order fits the check's bound). Each
// result is rounded once, as it is stored. Outside the matrix the slabs hold 0 (0 * 0 in the padding).
#ifndef XGEMM_MMA_H
#define XGEMM_MMA_H
#include "storage.h"

#if !defined(DTYPE_F16) && !defined(DTYPE_BF16)
#error "xgemm_mma: the tensor-core GEMM takes f16 or bf16 (dtypes in gemm.plan)"
#endif
// The operands' format: the storage format's, or with MMA_OPERANDS_BF16=1 bf16 words whatever the storage
// (f16's wgmma_split3 hands its f16 values over as exact bf16 parts); C is stored in the storage format.
#ifndef MMA_OPERANDS_BF16
#define MMA_OPERANDS_BF16 0
#endif
#if defined(DTYPE_F16) && !MMA_OPERANDS_BF16
#define MMA_OPERANDS_F16 1
#define MMA_TYPES "f32.f16.f16.f32"
#else
#define MMA_OPERANDS_F16 0
#define MMA_TYPES "f32.bf16.bf16.f32"
#endif

#ifndef MMA_EMULATE
#define MMA_EMULATE 0  // 1: the instruction emulated (mma_emulated), for devices without it
#endif
#ifndef ASYNC
#define ASYNC 0  // 1: the slabs through cp.async and the fragments through ldmatrix (xgemm_mma_async.h)
#endif
#ifndef WGMMA
#define WGMMA 0  // 1 (with ASYNC=1): Hopper's wgmma multiplies from the slabs (xgemm_mma_wgmma.h)
#endif
#if WGMMA && !ASYNC
#error "xgemm_mma: WGMMA=1 takes ASYNC=1 (its slabs come through cp.async)"
#endif
#ifndef PREFETCH
#define PREFETCH 1  // ASYNC=0: slabs whose global loads are in flight while one is multiplied (registers: the ring below)
#endif
#ifndef STAGES
#define STAGES 2  // ASYNC=1: slabs in local memory (STAGES - 1 in flight while one is multiplied)
#endif
#if ASYNC
#define SLABS_IN_LOCAL STAGES  // slabs of each operand in local memory
#else
#define SLABS_IN_LOCAL 2
#endif
#ifndef MWG
#define MWG 128
#endif
#ifndef NWG
#define NWG 128
#endif
#ifndef KWG
#define KWG 32
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
#define SW (KWG / 2)                // words from one slab row to the next
#define GROUP_AT(r, g) (8 * ((g) ^ (((r) / (64 / KWG)) % (KWG / 16))))  // where group g of row r starts
#define A_CHUNKS ((MWG * KWG / 16 + WGS - 1) / WGS)  // 32-byte chunks of the A slab per work-item (the
#define B_CHUNKS ((NWG * KWG / 16 + WGS - 1) / WGS)  // last round may leave some work-items out)

#if MWG % (16 * MWARPS) != 0 || NWG % (8 * NWARPS) != 0 || (KWG != 16 && KWG != 32 && KWG != 64)
#error "xgemm_mma: the tile sizes break its constraints (every require line of a plan that runs it implies these: plans_test)"
#endif

// The raw 16-bit words of an operand, whatever its storage format.
#define RAW(p) ((__global const ushort*)(p))

#if !ASYNC  // the register ring's loads and stores (ASYNC=1 copies through cp.async instead)
// Chunk l of this work-item's share of one slab, into two 16-byte registers r[2l], r[2l + 1]:
//   depth-contiguous operand: one row x of op(X), depths 16g .. 16g + 15 (both registers: one run of 32 bytes);
//   row-contiguous operand: depths 2p (r[2l]) and 2p + 1 (r[2l + 1]), rows 8q .. 8q + 7 of each.
// Lanes walk the depth first either way, so that every 32-byte sector a warp reads is read whole.
// inside: the slab lies in the matrix, the leading dimension and the batch offset are multiples of 8
// (16-byte loads); else each element is loaded on its own, 0 outside the matrix.
#define SLAB_LOADS(NAME, XWG, CHUNKS)                                                                          \
  void NAME(__global const ushort* p, int ld, int contiguous_depth, int x0, int k0, int xs, int ks, int aligned, \
            uint4 r[2 * CHUNKS]) {                                                                           \
    const int lid = get_local_id(0);                                                                           \
    const int inside = aligned && x0 + XWG <= xs && k0 + KWG <= ks;                                           \
    _Pragma("unroll") for (int l = 0; l < CHUNKS; ++l) {                                                       \
      const int c = lid + l * WGS;                                                                             \
      if (CHUNKS * WGS > XWG * KWG / 16 && c >= XWG * KWG / 16) break; /* past the slab */                    \
      if (contiguous_depth) {                                                                                  \
        const int x = c / (KWG / 16), d = 16 * (c % (KWG / 16));                                               \
        __global const ushort* s = p + (long)(x0 + x) * ld + k0 + d;                                           \
        if (inside) {                                                                                          \
          r[2 * l] = *(__global const uint4*)s;                                                                \
          r[2 * l + 1] = *(__global const uint4*)(s + 8);                                                      \
        } else {                                                                                               \
          uint w[8];                                                                                           \
          _Pragma("unroll") for (int e = 0; e < 8; ++e) {                                                      \
            const int k = k0 + d + 2 * e;                                                                      \
            const int row = x0 + x < xs;                                                                       \
            const uint lo = row && k < ks ? s[2 * e] : 0, hi = row && k + 1 < ks ? s[2 * e + 1] : 0;          \
            w[e] = lo | hi << 16;                                                                              \
          }                                                                                                    \
          r[2 * l] = (uint4)(w[0], w[1], w[2], w[3]);                                                          \
          r[2 * l + 1] = (uint4)(w[4], w[5], w[6], w[7]);                                                      \
        }                                                                                                      \
      } else {                                                                                                 \
        const int pr = c % (KWG / 2), q = c / (KWG / 2);                                                       \
        __global const ushort* s = p + (long)(k0 + 2 * pr) * ld + x0 + 8 * q;                                  \
        if (inside) {                                                                                          \
          r[2 * l] = *(__global const uint4*)s;                                                                \
          r[2 * l + 1] = *(__global const uint4*)(s + ld);                                                     \
        } else {                                                                                               \
          uint w[8];                                                                                           \
          _Pragma("unroll") for (int e = 0; e < 8; ++e) {                                                      \
            const int half_ = e / 4, x = x0 + 8 * q + 2 * (e % 4), k = k0 + 2 * pr + half_;                  \
            __global const ushort* t = s + half_ * (long)ld + 2 * (e % 4);                                     \
            const uint lo = k < ks && x < xs ? t[0] : 0, hi = k < ks && x + 1 < xs ? t[1] : 0;                 \
            w[e] = lo | hi << 16;                                                                              \
          }                                                                                                    \
          r[2 * l] = (uint4)(w[0], w[1], w[2], w[3]);                                                          \
          r[2 * l + 1] = (uint4)(w[4], w[5], w[6], w[7]);                                                      \
        }                                                                                                      \
      }                                                                                                        \
    }                                                                                                          \
  }

// B: word w (depths 2w, 2w + 1) of row r: in its group at 2 (w % 4) + (w % 8) / 4, the order 0 4 1 5 2 6 3 7.
#define WORD_AT(r, w) (GROUP_AT(r, (w) / 8) + 2 * ((w) % 4) + ((w) % 8) / 4)
// A: the super-row of row x (rows r and r + 8 of a 16-row tile), and where word w of row x sits.
#define A_SR(x) (((x) / 16) * 8 + (x) % 8)
#define A_QUAD(sr, g, t) ((sr) * KWG + 16 * ((g) ^ ((sr) & (KWG / 16 > 1))) + 4 * ((t) ^ (((sr) >> 1) & 3)))  // lane t's quad of group g
#define A_POS(x, w) (A_QUAD(A_SR(x), (w) / 8, (w) % 4) + 2 * (((w) % 8) / 4) + ((x) % 16) / 8)

// The registers of SLAB_LOADS into a slab (layout: this file's head).
#define SLAB_STORES(NAME, XWG, CHUNKS)                                                                         \
  void NAME##_store(int contiguous_depth, const uint4 r[2 * CHUNKS], __local uint* s) {                        \
    const int lid = get_local_id(0);                                                                           \
    _Pragma("unroll") for (int l = 0; l < CHUNKS; ++l) {                                                       \
      const int c = lid + l * WGS;                                                                             \
      if (CHUNKS * WGS > XWG * KWG / 16 && c >= XWG * KWG / 16) break;                                         \
      if (contiguous_depth) {                                                                                  \
        const int x = c / (KWG / 16), g = c % (KWG / 16);                                                      \
        const uint4 lo = r[2 * l], hi = r[2 * l + 1]; /* words 0-3, 4-7 of the group */                       \
        __local uint* d = s + x * SW + GROUP_AT(x, g);                                                         \
        *(__local uint4*)d = (uint4)(lo.x, hi.x, lo.y, hi.y);                                                  \
        *(__local uint4*)(d + 4) = (uint4)(lo.z, hi.z, lo.w, hi.w);                                            \
      } else {                                                                                                 \
        const int pr = c % (KWG / 2), q = c / (KWG / 2);                                                       \
        const uint e0[4] = {r[2 * l].x, r[2 * l].y, r[2 * l].z, r[2 * l].w};         /* depth 2pr */          \
        const uint e1[4] = {r[2 * l + 1].x, r[2 * l + 1].y, r[2 * l + 1].z, r[2 * l + 1].w}; /* 2pr + 1 */    \
        _Pragma("unroll") for (int j = 0; j < 4; ++j) {                                                        \
          const int x = 8 * q + 2 * j; /* rows x and x + 1: the halves of word j */                           \
          s[x * SW + WORD_AT(x, pr)] = (e0[j] & 0xFFFFu) | e1[j] << 16;                                        \
          s[(x + 1) * SW + WORD_AT(x + 1, pr)] = e0[j] >> 16 | (e1[j] & 0xFFFF0000u);                          \
        }                                                                                                      \
      }                                                                                                        \
    }                                                                                                          \
  }
SLAB_LOADS(slab_a, MWG, A_CHUNKS)
SLAB_LOADS(slab_b, NWG, B_CHUNKS)
SLAB_STORES(slab_b, NWG, B_CHUNKS)

// A's registers of SLAB_LOADS into its slab, word by word at A_POS (the same chunks as SLAB_STORES).
void slab_a_store(int contiguous_depth, const uint4 r[2 * A_CHUNKS], __local uint* s) {
  const int lid = get_local_id(0);
#pragma unroll
  for (int l = 0; l < A_CHUNKS; ++l) {
    const int c = lid + l * WGS;
    if (A_CHUNKS * WGS > MWG * KWG / 16 && c >= MWG * KWG / 16) break;
    if (contiguous_depth) {
      const int x = c / (KWG / 16), g = c % (KWG / 16);
      const uint w[8] = {r[2 * l].x, r[2 * l].y, r[2 * l].z, r[2 * l].w, r[2 * l + 1].x, r[2 * l + 1].y, r[2 * l + 1].z, r[2 * l + 1].w};
#pragma unroll
      for (int e = 0; e < 8; ++e) s[A_POS(x, 8 * g + e)] = w[e];
    } else {
      const int pr = c % (KWG / 2), q = c / (KWG / 2);
      const uint e0[4] = {r[2 * l].x, r[2 * l].y, r[2 * l].z, r[2 * l].w};                  // depth 2pr
      const uint e1[4] = {r[2 * l + 1].x, r[2 * l + 1].y, r[2 * l + 1].z, r[2 * l + 1].w};  // 2pr + 1
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int x = 8 * q + 2 * j;  // rows x and x + 1: the halves of word j
        s[A_POS(x, pr)] = (e0[j] & 0xFFFFu) | e1[j] << 16;
        s[A_POS(x + 1, pr)] = e0[j] >> 16 | (e1[j] & 0xFFFF0000u);
      }
    }
  }
}
#endif  // !ASYNC

#if MMA_EMULATE
// The instruction computed through local memory by the warp's lanes, for a device without tensor cores:
// the layouts above, and so the slab code, can be checked anywhere (proptests/kernels/mma_emulated.plan; the result
// is what mma.sync gives up to the order of the sums). The fragments as PTX's ISA lays them out: lane
// (gi, t) holds A's rows gi and gi + 8 at depths 2t, 2t + 1 and 2t + 8, 2t + 9; B's column gi at the same
// depths; C's rows gi and gi + 8 at columns 2t, 2t + 1. Every work-item calls it (work-group barriers).
float raw_to_float(uint h) {
#if MMA_OPERANDS_F16
  const ushort u = (ushort)h;
  return vload_half(0, (const __private half*)&u);
#else
  return as_float(h << 16);
#endif
}
void mma_emulated(float c[4], const uint a[4], const uint b[2], int lane, __local float* s) {
  __local float* sa = s;             // A [16 rows][16 depths]
  __local float* sb = s + 16 * 16;   // B [16 depths][8 columns]
  const int gi = lane / 4, t = lane % 4;
  for (int h = 0; h < 2; ++h) {
    sa[gi * 16 + 2 * t + h] = raw_to_float(a[0] >> (16 * h));
    sa[(gi + 8) * 16 + 2 * t + h] = raw_to_float(a[1] >> (16 * h));
    sa[gi * 16 + 2 * t + 8 + h] = raw_to_float(a[2] >> (16 * h));
    sa[(gi + 8) * 16 + 2 * t + 8 + h] = raw_to_float(a[3] >> (16 * h));
    sb[(2 * t + h) * 8 + gi] = raw_to_float(b[0] >> (16 * h));
    sb[(2 * t + 8 + h) * 8 + gi] = raw_to_float(b[1] >> (16 * h));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = 0; e < 4; ++e) {
    const int row = gi + 8 * (e / 2), col = 2 * t + e % 2;
    for (int d = 0; d < 16; ++d) c[e] += sa[row * 16 + d] * sb[d * 8 + col];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
}
#endif

// c[0..3] += A (a[4]) @ B (b[2]): one m16n8k16 of the warp, in the instruction's fragment layout.
#if MMA_EMULATE
#define MMA_16816(c, a, b, lane, emu)                                  \
  {                                                                    \
    float c_[4] = {(c)[0], (c)[1], (c)[2], (c)[3]};                    \
    mma_emulated(c_, a, b, lane, emu);                                 \
    (c)[0] = c_[0], (c)[1] = c_[1], (c)[2] = c_[2], (c)[3] = c_[3];    \
  }
#else
#define MMA_16816(c, a, b, lane, emu)                                                                                           \
  asm volatile("mma.sync.aligned.m16n8k16.row.col." MMA_TYPES " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"        \
               : "+f"((c)[0]), "+f"((c)[1]), "+f"((c)[2]), "+f"((c)[3])                                                       \
               : "r"((a)[0]), "r"((a)[1]), "r"((a)[2]), "r"((a)[3]), "r"((b)[0]), "r"((b)[1]));
#endif

#if ASYNC
#include "xgemm_mma_async.h"
#else
// One 16-deep step of a warp: its fragments from the slabs (depth group g), then MFR x NFR mma.
// emu: the warp's room for mma_emulated (unused with the instruction).
void warp_step(__local const uint* as, __local const uint* bs, int g, int lane, float acc[MFR * NFR * 4], __local float* emu) {
  const int gi = lane / 4, t = lane % 4;  // the instruction's groupID and thread-in-group
  uint af[MFR][4], bf[NFR][2];
#pragma unroll
  for (int i = 0; i < MFR; ++i) {
    // Super-rows from the warp's first (a multiple of 8: the same swizzle): rows gi and gi + 8 of tile i.
    const uint4 q = *(__local const uint4*)(as + A_QUAD(8 * i + gi, g, t));
    af[i][0] = q.x;  // row gi, depths 2t, 2t + 1
    af[i][1] = q.y;  // row gi + 8
    af[i][2] = q.z;  // row gi, depths 2t + 8, 2t + 9
    af[i][3] = q.w;
  }
#pragma unroll
  for (int j = 0; j < NFR; ++j) {
    const int r = 8 * j + gi;
    const uint2 col = *(__local const uint2*)(bs + r * SW + GROUP_AT(r, g) + 2 * t);
    bf[j][0] = col.x;  // column gi, depths 2t, 2t + 1
    bf[j][1] = col.y;  // depths 2t + 8, 2t + 9
  }
#pragma unroll
  for (int i = 0; i < MFR; ++i)
#pragma unroll
    for (int j = 0; j < NFR; ++j) MMA_16816(acc + 4 * (i * NFR + j), af[i], bf[j], lane, emu);
}

// An entry point may gather an operand's slabs itself (an implicit GEMM, conv_igemm_mma.cl):
// MMA_SLAB_A(k0, r) or MMA_SLAB_B(k0, r) fills registers r as slab_a or slab_b would, in the layout the
// operand's ta or tb says, from the extra parameters MMA_PARAMS.
#ifndef MMA_SLAB_A
#define MMA_SLAB_A(k0, r) slab_a(pa, lda, !ta, m0, k0, m, k, a_aligned, r)
#endif
#ifndef MMA_SLAB_B
#define MMA_SLAB_B(k0, r) slab_b(pb, ldb, tb, n0, k0, n, k, b_aligned, r)
#endif
#ifndef MMA_PARAMS
#define MMA_PARAMS
#endif

// The work-group's MWG x NWG tile of C at (m0, n0) into each warp's accumulators (layout: STORE_FRAGMENTS).
// as4, bs4: the two slabs of each operand, MWG * SW and NWG * SW words each (XGEMM_MMA_LOCALS); emu:
// the warp's room for mma_emulated. pa, pb: the batch entry's operands as raw 16-bit words.
void xgemm_mma_accumulate(int m, int n, int k, __global const ushort* pa, int lda, int ta, int a_aligned, __global const ushort* pb,
                          int ldb, int tb, int b_aligned, __local uint4* as4, __local uint4* bs4, float acc[MFR * NFR * 4],
                          __local float* emu MMA_PARAMS) {
  const int lid = get_local_id(0), lane = lid % 32, warp = lid / 32;
  const int wm = warp / NWARPS, wn = warp % NWARPS;
  const int m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
#pragma unroll
  for (int i = 0; i < MFR * NFR * 4; ++i) acc[i] = 0.0f;
#define as(i) ((__local uint*)(as4 + (i) * (MWG * SW / 4)))
#define bs(i) ((__local uint*)(bs4 + (i) * (NWG * SW / 4)))
  // A ring of PREFETCH slabs in registers: slab s + 1 + PREFETCH is loaded as soon as slab s + 1 has
  // left its registers for local memory, and is stored PREFETCH slabs later, so that its loads have
  // PREFETCH slabs' multiplications to arrive in (one block of 8 warps per multiprocessor hides little).
  uint4 ra[PREFETCH][2 * A_CHUNKS], rb[PREFETCH][2 * B_CHUNKS];
#define LOAD_SLAB(slot, s)                                               \
  MMA_SLAB_A((s) * KWG, ra[slot]);                                       \
  MMA_SLAB_B((s) * KWG, rb[slot]);
  const int slabs = (k + KWG - 1) / KWG;
  LOAD_SLAB(0, 0)
  slab_a_store(!ta, ra[0], as(0));
  slab_b_store(tb, rb[0], bs(0));
#pragma unroll
  for (int u = 1; u <= PREFETCH; ++u)
    if (u < slabs) { LOAD_SLAB(u % PREFETCH, u) }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s0 = 0; s0 < slabs; s0 += PREFETCH) {
#pragma unroll
    for (int u = 0; u < PREFETCH; ++u) {  // unrolled: the ring's slots are registers (s + 1 sits in slot (u + 1) % PREFETCH)
      const int s = s0 + u, cur = s & 1;
      if (s >= slabs) break;
#pragma unroll
      for (int g = 0; g < KWG / 16; ++g)
        warp_step(as(cur) + wm * (MWG / MWARPS) * SW, bs(cur) + wn * (NWG / NWARPS) * SW, g, lane, acc, emu);
      if (s + 1 < slabs) {
        slab_a_store(!ta, ra[(u + 1) % PREFETCH], as(cur ^ 1));  // the other buffer: its last readers passed the barrier before
        slab_b_store(tb, rb[(u + 1) % PREFETCH], bs(cur ^ 1));
      }
      if (s + 1 + PREFETCH < slabs) { LOAD_SLAB((u + 1) % PREFETCH, s + 1 + PREFETCH) }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}
#endif  // ASYNC

// Each warp's accumulators, through EPILOGUE(v, row, col), into C (leading dimension ldc): fragment
// (i, j) holds rows gi and gi + 8, columns 2t and 2t + 1 of its 16 x 8 (lane = 4 gi + t); two
// neighbours are one aligned store where ldc and the batch offset (c_batch) are even.
// STAGED=1 (where C's tile fits the slabs' room): the tile goes through local memory first and out in
// 16-byte row chunks (STORE_STAGED), where the fragments' 4-byte stores fill half of each 32-byte sector.
// On the H100 at 128 x 128 x 32 (wgmma): 4096x1024x1024 bf16 0.0279 -> 0.0239 ms, f16 -> 0.0222, 64
// batches of 512x64x512 0.0449 -> 0.0300 (H100, 2026-11-26).
#ifndef STAGED
#define STAGED 0
#endif
#if STAGED && MWG * NWG <= SLABS_IN_LOCAL * (MWG + NWG) * KWG
#define STORE_FRAGMENTS(c, ldc, c_batch, m, n, EPILOGUE) STORE_STAGED(c, ldc, (ldc) % 8 == 0 && (c_batch) % 8 == 0, m, n, EPILOGUE)
#else
#define STORE_FRAGMENTS(c, ldc, c_batch, m, n, EPILOGUE)                                                    \
  {                                                                                                         \
    __global real_t* const c_at_ = (c); /* not y: c may name one */                                        \
    const long ldc_at_ = (ldc);                                                                             \
    STORE_FRAGMENTS_WHERE(ROW_MAJOR_AT, (ldc) % 2 == 0 && (c_batch) % 2 == 0, m, n, EPILOGUE)               \
  }
#endif
#define ROW_MAJOR_AT(row, col) (c_at_ + (long)(row) * ldc_at_ + (col))
// The same with element (row, col) at AT(row, col), a macro of the caller's (conv_igemm_mma.cl stores a
// GEMM over several images' pixels into NCHW); columns col and col + 1 (col is even) are one aligned
// 2-element store where pairs_ok says they are neighbours in memory.
#define STORE_FRAGMENTS_WHERE(AT, pairs_ok, m, n, EPILOGUE) STORE_FRAGMENTS_AS(AT, pairs_ok, m, n, EPILOGUE, ST2, ST)
// The same through the caller's store macros ST2_ and ST_ (storage.h's pairs, ST2_FLOAT and ST_FLOAT
// for a float32 C).
#define STORE_FRAGMENTS_AS(AT, pairs_ok, m, n, EPILOGUE, ST2_, ST_)                                         \
  {                                                                                                         \
    const int lane_ = get_local_id(0) % 32, warp_ = get_local_id(0) / 32, gi = lane_ / 4, t = lane_ % 4;   \
    const int r0 = get_group_id(1) * MWG + warp_ / NWARPS * (MWG / MWARPS) + gi;                            \
    const int c0 = get_group_id(0) * NWG + warp_ % NWARPS * (NWG / NWARPS) + 2 * t;                         \
    const int pairs = (pairs_ok);                                                                           \
    _Pragma("unroll") for (int i = 0; i < MFR; ++i)                                                         \
    _Pragma("unroll") for (int j = 0; j < NFR; ++j)                                                         \
    _Pragma("unroll") for (int h = 0; h < 2; ++h) {                                                         \
      const int row = r0 + 16 * i + 8 * h, col = c0 + 8 * j;                                                \
      if (row >= (m)) continue;                                                                             \
      const float v0 = acc[4 * (i * NFR + j) + 2 * h], v1 = acc[4 * (i * NFR + j) + 2 * h + 1];             \
      if (pairs && col + 1 < (n)) {                                                                         \
        ST2_(AT(row, col), ((float2)(EPILOGUE(v0, row, col), EPILOGUE(v1, row, col + 1))));                 \
      } else {                                                                                              \
        if (col < (n)) ST_(AT(row, col), 0, EPILOGUE(v0, row, col));                                        \
        if (col + 1 < (n)) ST_(AT(row, col + 1), 0, EPILOGUE(v1, row, col + 1));                            \
      }                                                                                                     \
    }                                                                                                       \
  }

// C's MWG x NWG tile through local memory (the slabs' room, as4 on): each pair of the fragments, through
// EPILOGUE and rounded to the storage format, into tile row r's 16-byte chunk (col / 8 + r) % (NWG / 8)
// (rotated by the row, so that a warp's 8 rows of pairs fall in different banks); then each work-item
// stores whole chunks, 16 bytes where the row holds all 8 columns and aligned_rows says rows start at
// multiples of 8 elements, else element by element.
#define STAGED_CHUNK(r, col) ((r) * (NWG / 8) + ((col) / 8 + (r)) % (NWG / 8))  // in uint4s
#define STORE_STAGED(c, ldc, aligned_rows, m, n, EPILOGUE)                                                  \
  {                                                                                                         \
    __global ushort* const out_ = (__global ushort*)(c);                                                    \
    const long ld_ = (ldc);                                                                                 \
    __local uint* const tile_ = (__local uint*)as4;                                                         \
    const int lane_ = get_local_id(0) % 32, warp_ = get_local_id(0) / 32, gi = lane_ / 4, t = lane_ % 4;   \
    const int tr0 = warp_ / NWARPS * (MWG / MWARPS) + gi, tc0 = warp_ % NWARPS * (NWG / NWARPS) + 2 * t;   \
    const int m0_ = get_group_id(1) * MWG, n0_ = get_group_id(0) * NWG;                                     \
    barrier(CLK_LOCAL_MEM_FENCE); /* every warp's last slab read */                                        \
    _Pragma("unroll") for (int i = 0; i < MFR; ++i)                                                         \
    _Pragma("unroll") for (int j = 0; j < NFR; ++j)                                                         \
    _Pragma("unroll") for (int h = 0; h < 2; ++h) {                                                         \
      const int tr = tr0 + 16 * i + 8 * h, tc = tc0 + 8 * j;                                                \
      const float v0 = acc[4 * (i * NFR + j) + 2 * h], v1 = acc[4 * (i * NFR + j) + 2 * h + 1];             \
      tile_[STAGED_CHUNK(tr, tc) * 4 + (tc % 8) / 2] =                                                      \
          pair_bits((float2)(EPILOGUE(v0, m0_ + tr, n0_ + tc), EPILOGUE(v1, m0_ + tr, n0_ + tc + 1)));            \
    }                                                                                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
    for (int e = get_local_id(0); e < MWG * NWG / 8; e += WGS) {                                            \
      const int tr = e / (NWG / 8), tc = e % (NWG / 8) * 8, row = m0_ + tr, col = n0_ + tc;                 \
      if (row >= (m)) continue;                                                                             \
      const uint4 v = ((__local const uint4*)tile_)[STAGED_CHUNK(tr, tc)];                                  \
      __global ushort* const at = out_ + (long)row * ld_ + col;                                             \
      if ((aligned_rows) && col + 8 <= (n)) {                                                               \
        *(__global uint4*)at = v;                                                                           \
      } else {                                                                                              \
        const uint w[4] = {v.x, v.y, v.z, v.w};                                                             \
        for (int q = 0; q < 8 && col + q < (n); ++q) at[q] = (ushort)(w[q / 2] >> (16 * (q % 2)));         \
      }                                                                                                     \
    }                                                                                                       \
  }

// The kernel-scope local memory of an entry point: the slabs of both operands (SLABS_IN_LOCAL each; uint4:
// aligned for the 16-byte stores; NVIDIA places a uint array at 4 bytes), and with MMA_EMULATE each
// warp's room.
// wgmma's swizzle atoms are aligned to their size (up to 1024 bytes).
#if WGMMA
#define SLABS_ALIGNED __attribute__((aligned(1024)))
#else
#define SLABS_ALIGNED
#endif
// One array holds both operands' slabs (A's first), so that STAGED can reuse all of it for C's tile; B's
// start, STAGES A slabs on, stays 1024-aligned (an A slab is MWG * KWG * 2 >= 2048 bytes).
#define SLAB_UINT4S_A (SLABS_IN_LOCAL * MWG * SW / 4)
#define SLAB_UINT4S_B (SLABS_IN_LOCAL * NWG * SW / 4)
#define SLAB_ARRAYS                                                                     \
  __local uint4 slabs_[SLAB_UINT4S_A + SLAB_UINT4S_B] SLABS_ALIGNED;                    \
  __local uint4* const as4 = slabs_;                                                    \
  __local uint4* const bs4 = slabs_ + SLAB_UINT4S_A;
#if MMA_EMULATE
#define XGEMM_MMA_LOCALS                                                  \
  SLAB_ARRAYS                                                             \
  __local float emu_[MWARPS * NWARPS][16 * 16 + 16 * 8];                  \
  __local float* emu = emu_[get_local_id(0) / 32];                        \
  float acc[MFR * NFR * 4];
#else
#define XGEMM_MMA_LOCALS                                                  \
  SLAB_ARRAYS                                                             \
  __local float* emu = 0; /* no room: 48 KiB is the slabs' */             \
  float acc[MFR * NFR * 4];
#endif

#endif  // XGEMM_MMA_H
