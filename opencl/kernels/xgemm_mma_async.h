// The tensor-core core's main loop with ASYNC=1 (xgemm_mma.h includes it): the slabs reach local memory
// through `cp.async` (no register ring: the copies run while the warps multiply) in a ring of STAGES
// slabs, and the fragments come out of it through `ldmatrix`, as CUTLASS's sm80 GEMMs do. Fewer
// registers a work-item than the ring of ASYNC=0, so more warps a multiprocessor, and STAGES - 1 slabs
// in flight while one is multiplied, with one barrier a slab.
//
// A slab holds its operand as stored, in 16-byte chunks of 8 elements:
//   depth-contiguous (A with ta = 0, B with tb = 1): XWG rows of KWG depths, chunk (row, c) of depths
//     8c .. 8c + 7;
//   row-contiguous (A with ta = 1, B with tb = 0): KWG depth rows of XWG elements, chunk (depth, c).
// Within a row the chunks are swizzled (SWIZZLE: chunk c of row r at c ^ f(r)), so that the 8 rows one
// `ldmatrix` matrix reads (16 bytes each) fall on 8 different 16-byte bank groups. The instruction's
// fragments are 8 x 8 matrices of 16-bit elements: `ldmatrix` gives A's row fragment and B's column
// fragment from depth-contiguous chunks, and `ldmatrix.trans` from row-contiguous ones.
//
// Edges: a chunk partly outside the matrix copies its valid elements and zero-fills the rest
// (cp.async's source size). An operand whose chunks are not 16-byte aligned (leading dimension or batch
// offset not a multiple of 8: aligned = 0) is loaded element by element and stored as the copy would.
// With MMA_EMULATE both instructions are computed by the work-item itself from the same addresses (the
// layout and the lanes' addresses are so checked on any device).
#ifndef XGEMM_MMA_ASYNC_H
#define XGEMM_MMA_ASYNC_H

#if STAGES < 2 || STAGES > 6
#error "xgemm_mma: STAGES takes 2 to 6 (every require line of a plan that runs it implies this: plans_test)"
#endif
#if defined(MMA_SLAB_A) || defined(MMA_SLAB_B)
#error "xgemm_mma: with ASYNC=1 an entry point gathers an operand through MMA_CHUNK_A or MMA_CHUNK_B"
#endif
// An entry point may gather a depth-contiguous operand itself (an implicit GEMM, conv_igemm_mma.cl):
// MMA_CHUNK_A(at, d, dst) or MMA_CHUNK_B(at, d, dst) fills chunk dst with depths d .. d + 7 of the row
// that `at` describes (0 outside the matrix), through copy_chunk or load_chunk. `at` is of type
// MMA_GATHER_T, made once before the main loop by MMA_GATHER_AT(p, x, xs) for row x of xs (p: the
// operand's pointer as passed), so that what depends on the row only (a pixel's image and place) is
// not computed again every slab. Both may use the extra parameters MMA_PARAMS (passed on by name:
// MMA_ARGS).
#ifdef MMA_CHUNK_A
#define GATHERED_A 1
#else
#define GATHERED_A 0
#define MMA_CHUNK_A(x, d, dst)
#endif
#ifdef MMA_CHUNK_B
#define GATHERED_B 1
#else
#define GATHERED_B 0
#define MMA_CHUNK_B(x, d, dst)
#endif
// DEPTH_HALVES=1: the slabs' loop adds to the sums it is given where keep_acc is set (the second of two
// calls over a depth in halves, xgemm_mma_backward_split.cl's xgemm_mma_halves), so that an operand read
// twice or two operands side by side along the depth need no copy. The flag comes as MMA_PARAMS; no
// gathered operand beside it.
#ifndef DEPTH_HALVES
#define DEPTH_HALVES 0
#endif
#if DEPTH_HALVES
#if defined(MMA_PARAMS) || GATHERED_A || GATHERED_B
#error "xgemm_mma: DEPTH_HALVES takes the extra parameter itself, with no gathered operand"
#endif
#define MMA_PARAMS , int keep_acc
#define MMA_ARGS , keep_acc
#endif
#ifndef MMA_PARAMS
#define MMA_PARAMS
#define MMA_ARGS
#endif
#ifndef MMA_GATHER_T
#define MMA_GATHER_T int  // unused: no operand gathered
#define MMA_GATHER_AT(p, x, xs) 0
#endif
#if WGMMA
#include "xgemm_mma_wgmma.h"
#define PENDING WG_PENDING
#else
#define PENDING 0
void fence_proxy_async(void) {}  // ldmatrix reads through the generic proxy, as the copies write
#endif
#define CHUNKS_OF(XWG) ((XWG * KWG / 8 + WGS - 1) / WGS)  // a work-item's chunks of a slab of XWG rows

#define SLAB_WORDS(XWG) ((XWG) * SW)  // 32-bit words of one slab of XWG rows (SW: a row's, xgemm_mma.h)
// Chunk c of row r of a slab of cpr chunks a row: the 8 rows of an ldmatrix matrix (consecutive r,
// same c) land on 8 different bank groups of 16 bytes. An XOR keeps c within its row only where cpr is
// a power of two; other rows (a tile of 48, say) are not swizzled.
#define SWIZZLE(r, c, cpr) \
  ((cpr) & ((cpr) - 1) ? (c) : (c) ^ (((r) / ((cpr) >= 8 ? 1 : 8 / (cpr))) % ((cpr) >= 8 ? 8 : (cpr))))
#define CHUNK_AT(r, c, cpr) ((r) * (cpr) + SWIZZLE(r, c, cpr))  // in 16-byte chunks from the slab's start
// Chunk c of a slab of cpr chunks a row (c counts a work-group's copies: lanes along a row) sits in
// row SLAB_ROW, column SLAB_COL, at SLAB_CHUNK (in 16-byte chunks): for ldmatrix at CHUNK_AT, for wgmma
// in its swizzled atoms (xgemm_mma_wgmma.h).
#define SLAB_ROW(c, cpr) ((c) / (cpr))
#define SLAB_COL(c, cpr) ((c) % (cpr))
#if WGMMA
#define SLAB_CHUNK(r, c, cpr, contiguous_depth) wg_chunk(r, c, cpr, contiguous_depth)
#else
#define SLAB_CHUNK(r, c, cpr, contiguous_depth) CHUNK_AT(r, c, cpr)
#endif

// One 16-byte chunk from global to local memory: `valid` elements (0-8) from src, zeros after.
void copy_chunk(__local uint4* dst, __global const ushort* src, int valid) {
#if MMA_EMULATE
  ushort e[8];
  for (int i = 0; i < 8; ++i) e[i] = i < valid ? src[i] : 0;
  *dst = (uint4)(e[0] | (uint)e[1] << 16, e[2] | (uint)e[3] << 16, e[4] | (uint)e[5] << 16, e[6] | (uint)e[7] << 16);
#else
  const uint d = (uint)(ulong)dst;  // the shared window's address of a __local pointer
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(2 * valid));
#endif
}
// The same, element by element (an operand whose chunks are not 16-byte aligned).
void load_chunk(__local uint4* dst, __global const ushort* src, int valid) {
  uint w[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const uint lo = 2 * i < valid ? src[2 * i] : 0, hi = 2 * i + 1 < valid ? src[2 * i + 1] : 0;
    w[i] = lo | hi << 16;
  }
  *dst = (uint4)(w[0], w[1], w[2], w[3]);
}

void async_commit(void) {
#if !MMA_EMULATE
  asm volatile("cp.async.commit_group;");
#endif
}
// Until at most n (a constant, 0-4) groups of this work-item's copies are in flight.
void async_wait(int n) {
#if !MMA_EMULATE
  if (n <= 0)
    asm volatile("cp.async.wait_group 0;");
  else if (n == 1)
    asm volatile("cp.async.wait_group 1;");
  else if (n == 2)
    asm volatile("cp.async.wait_group 2;");
  else if (n == 3)
    asm volatile("cp.async.wait_group 3;");
  else
    asm volatile("cp.async.wait_group 4;");
#endif
}

// This work-item's chunks of slab k0 of one operand into s (layout: this file's head). p: the
// operand's raw words, ld its leading dimension; the slab spans rows x0 .. x0 + XWG - 1 of xs and depths
// k0 .. k0 + KWG - 1 of ks. Unrolled over a work-item's chunks. The general path: a gathered operand,
// a slab at the matrix's edge, an unaligned operand; the slabs of a plain operand inside the matrix
// take FAST_COPY instead (xgemm_mma_accumulate), whose addresses are made once.
#define ASYNC_SLAB(NAME, XWG, GATHERED, CHUNK)                                                                  \
  void NAME(__global const ushort* p, int ld, int contiguous_depth, int x0, int k0, int xs, int ks, int aligned, \
            __local uint4* s, const MMA_GATHER_T gather[CHUNKS_OF(XWG)] MMA_PARAMS) {                            \
    const int inside = aligned && x0 + XWG <= xs && k0 + KWG <= ks;                                            \
    _Pragma("unroll") for (int l = 0; l < CHUNKS_OF(XWG); ++l) {                                                \
      const int c = get_local_id(0) + l * WGS;                                                                  \
      if ((XWG * KWG / 8) % WGS != 0 && c >= XWG * KWG / 8) break; /* past the slab */                         \
      if (GATHERED) { /* the entry point's: depth-contiguous, row x0 + SLAB_ROW in gather[l] */                \
        const int row = SLAB_ROW(c, KWG / 8), col = SLAB_COL(c, KWG / 8);                                       \
        CHUNK(gather[l], k0 + 8 * col, s + SLAB_CHUNK(row, col, KWG / 8, 1));                                   \
        continue;                                                                                               \
      }                                                                                                         \
      int valid, row, col;                                                                                      \
      long at;                                                                                                  \
      __local uint4* d;                                                                                         \
      if (contiguous_depth) { /* row x0 + row, depths k0 + 8 col .. */                                         \
        row = SLAB_ROW(c, KWG / 8), col = SLAB_COL(c, KWG / 8);                                                 \
        d = s + SLAB_CHUNK(row, col, KWG / 8, 1);                                                               \
        at = (long)(x0 + row) * ld + k0 + 8 * col;                                                              \
        valid = x0 + row < xs ? clamp(ks - (k0 + 8 * col), 0, 8) : 0;                                           \
      } else { /* depth k0 + row, rows x0 + 8 col .. */                                                         \
        row = SLAB_ROW(c, XWG / 8), col = SLAB_COL(c, XWG / 8);                                                 \
        d = s + SLAB_CHUNK(row, col, XWG / 8, 0);                                                               \
        at = (long)(k0 + row) * ld + x0 + 8 * col;                                                              \
        valid = k0 + row < ks ? clamp(xs - (x0 + 8 * col), 0, 8) : 0;                                           \
      }                                                                                                         \
      if (inside)                                                                                               \
        copy_chunk(d, p + at, 8);                                                                               \
      else if (aligned)                                                                                         \
        copy_chunk(d, valid ? p + at : p, valid);                                                               \
      else                                                                                                      \
        load_chunk(d, p + at, valid);                                                                           \
    }                                                                                                           \
  }
ASYNC_SLAB(async_slab_a, MWG, GATHERED_A, MMA_CHUNK_A)
ASYNC_SLAB(async_slab_b, NWG, GATHERED_B, MMA_CHUNK_B)

// The ushort offset in a slab of the row that lane l points `ldmatrix` at, for the fragment(s) whose
// first row (A) or column (B) is x0, in depth group g (16 deep). A, x4: matrices (rows 0-7, depths
// 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15): the instruction's a0 .. a3. B, x4: two column fragments,
// matrices (columns 0-7, depths 0-7), (0-7, 8-15), (8-15, 0-7), (8-15, 8-15): b0 b1 of each.
int ldsm_row(int is_a, int contiguous_depth, int xwg, int x0, int g, int l) {
  const int r8 = l % 8, m1 = (l / 8) % 2, m2 = l / 16;  // the row in the matrix; its matrix's two bits
  const int second_x = is_a ? m1 : m2, second_k = is_a ? m2 : m1;
  if (contiguous_depth)  // row x, chunk of depths: non-transposed
    return 8 * CHUNK_AT(x0 + r8 + 8 * second_x, 2 * g + second_k, KWG / 8);
  return 8 * CHUNK_AT(16 * g + r8 + 8 * second_k, x0 / 8 + second_x, xwg / 8);  // depth row, chunk of rows: transposed
}

// `ldmatrix` of COUNT (2 or 4) matrices, transposed where the slab is row-contiguous.
void ldsm(__local const ushort* s, int is_a, int contiguous_depth, int xwg, int x0, int g, int lane, uint r[4], int count) {
#if MMA_EMULATE
  for (int j = 0; j < count; ++j) {
    if (contiguous_depth) {  // lane l: row l / 4 of matrix j, its 32-bit word l % 4
      const int off = ldsm_row(is_a, 1, xwg, x0, g, 8 * j + lane / 4);
      r[j] = s[off + 2 * (lane % 4)] | (uint)s[off + 2 * (lane % 4) + 1] << 16;
    } else {  // transposed: rows 2 (l % 4) and 2 (l % 4) + 1, column l / 4
      const int off0 = ldsm_row(is_a, 0, xwg, x0, g, 8 * j + 2 * (lane % 4));
      const int off1 = ldsm_row(is_a, 0, xwg, x0, g, 8 * j + 2 * (lane % 4) + 1);
      r[j] = s[off0 + lane / 4] | (uint)s[off1 + lane / 4] << 16;
    }
  }
#else
  const uint at = (uint)(ulong)(s + ldsm_row(is_a, contiguous_depth, xwg, x0, g, lane));
  if (count == 4) {
    if (contiguous_depth)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(at));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(at));
  } else {
    if (contiguous_depth)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(at));
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(at));
  }
#endif
}

// A warp's fragments of depth group g (16 deep) from slabs as, bs; xa, xb: its first row and column.
void load_fragments(__local const ushort* as, __local const ushort* bs, int a_depth, int b_depth, int xa, int xb, int g, int lane,
                    uint af[MFR][4], uint bf[NFR][2]) {
#pragma unroll
  for (int i = 0; i < MFR; ++i) ldsm(as, 1, a_depth, MWG, xa + 16 * i, g, lane, af[i], 4);
#pragma unroll
  for (int j = 0; j < NFR; j += 2) {
    uint q[4];
    ldsm(bs, 0, b_depth, NWG, xb + 8 * j, g, lane, q, j + 1 < NFR ? 4 : 2);
    bf[j][0] = q[0], bf[j][1] = q[1];
    if (j + 1 < NFR) bf[j + 1][0] = q[2], bf[j + 1][1] = q[3];  // an x2 load (odd NFR) leaves q[2], q[3] unset
  }
}

// The work-group's MWG x NWG tile of C at (m0, n0) into each warp's accumulators (layout: STORE_FRAGMENTS).
// as4, bs4: STAGES slabs of each operand (XGEMM_MMA_LOCALS); emu: the warp's room for mma_emulated.
// One barrier a slab. A group's fragments are loaded right before its mma: double-buffering them in
// registers (the next group's ldmatrix beside this one's mma, as CUTLASS does) took 128 x 128 tiles
// from 128 to 177 registers, one work-group a multiprocessor instead of two, and 35% more time
// (H100, 2026-11-26).
void xgemm_mma_accumulate_slabs(int m, int n, int k, __global const ushort* pa, int lda, int ta, int a_aligned, __global const ushort* pb,
                                int ldb, int tb, int b_aligned, __local uint4* as4, __local uint4* bs4, float acc[MFR * NFR * 4],
                                __local float* emu MMA_PARAMS) {
  const int lid = get_local_id(0), lane = lid % 32, warp = lid / 32;
  const int xa = warp / NWARPS * (MWG / MWARPS), xb = warp % NWARPS * (NWG / NWARPS);  // the warp's first row and column
  const int m0 = get_group_id(1) * MWG, n0 = get_group_id(0) * NWG;
#if DEPTH_HALVES
  if (!keep_acc)
#endif
  {
#pragma unroll
    for (int i = 0; i < MFR * NFR * 4; ++i) acc[i] = 0.0f;
  }
  // A gathered operand's rows, once (the rows of this work-item's chunks do not change from slab to slab).
  MMA_GATHER_T gather_a[CHUNKS_OF(MWG)], gather_b[CHUNKS_OF(NWG)];
#pragma unroll
  for (int l = 0; l < CHUNKS_OF(MWG); ++l)
    if (GATHERED_A) gather_a[l] = MMA_GATHER_AT(pa, m0 + SLAB_ROW(lid + l * WGS, KWG / 8), m);
#pragma unroll
  for (int l = 0; l < CHUNKS_OF(NWG); ++l)
    if (GATHERED_B) gather_b[l] = MMA_GATHER_AT(pb, n0 + SLAB_ROW(lid + l * WGS, KWG / 8), n);
#define STAGE_A(i) (as4 + (i) * (SLAB_WORDS(MWG) / 4))
#define STAGE_B(i) (bs4 + (i) * (SLAB_WORDS(NWG) / 4))
  // A plain operand's slabs inside the matrix (all but the edge tiles' and the last) take one copy a
  // chunk from where the chunk lies at depth 0, a slab's step further: the rest of async_slab's
  // arithmetic is done once here (it was two thirds of the main loop's instructions). Counted in
  // 16-byte chunks from the operand's start (aligned: ld % 8 == 0), so that each is one register.
  int a_from[CHUNKS_OF(MWG)], b_from[CHUNKS_OF(NWG)];
#define FAST_CHUNKS(XWG, ld, contiguous_depth, x0, from)                                                  \
  _Pragma("unroll") for (int l = 0; l < CHUNKS_OF(XWG); ++l) {                                            \
    const int c = min(lid + l * WGS, XWG * KWG / 8 - 1); /* past the slab: not copied (FAST_COPY) */     \
    from[l] = contiguous_depth ? (x0 + SLAB_ROW(c, KWG / 8)) * (ld / 8) + SLAB_COL(c, KWG / 8)            \
                               : SLAB_ROW(c, XWG / 8) * (ld / 8) + x0 / 8 + SLAB_COL(c, XWG / 8);          \
  }
  FAST_CHUNKS(MWG, lda, !ta, m0, a_from)
  FAST_CHUNKS(NWG, ldb, tb, n0, b_from)
  const int a_step = !ta ? KWG / 8 : KWG * (lda / 8), b_step = tb ? KWG / 8 : KWG * (ldb / 8);  // a slab's step, in chunks
  // Fast where every chunk of every slab is inside the matrix and its chunk number fits an int.
  const int a_fast = !GATHERED_A && a_aligned && m0 + MWG <= m && (long)(ta ? k : m) * (lda / 8) < 2147483647;
  const int b_fast = !GATHERED_B && b_aligned && n0 + NWG <= n && (long)(tb ? n : k) * (ldb / 8) < 2147483647;
#define FAST_COPY(XWG, stage_at, p, from, step, contiguous_depth, s)                                      \
  _Pragma("unroll") for (int l = 0; l < CHUNKS_OF(XWG); ++l) {                                            \
    const int c = lid + l * WGS;                                                                          \
    const int to = contiguous_depth ? SLAB_CHUNK(SLAB_ROW(c, KWG / 8), SLAB_COL(c, KWG / 8), KWG / 8, 1)  \
                                    : SLAB_CHUNK(SLAB_ROW(c, XWG / 8), SLAB_COL(c, XWG / 8), XWG / 8, 0); \
    if ((XWG * KWG / 8) % WGS == 0 || c < XWG * KWG / 8)                                                  \
      copy_chunk(stage_at + to, (__global const ushort*)((__global const uint4*)p + from[l] + (s) * step), 8); \
  }
#define COPY_SLAB(stage, s)                                                                                        \
  {                                                                                                                \
    const int inside_k = ((s) + 1) * KWG <= k;                                                                     \
    if (a_fast && inside_k) {                                                                                      \
      FAST_COPY(MWG, STAGE_A(stage), pa, a_from, a_step, !ta, s)                                                   \
    } else {                                                                                                       \
      async_slab_a(pa, lda, !ta, m0, (s) * KWG, m, k, a_aligned, STAGE_A(stage), gather_a MMA_ARGS);               \
    }                                                                                                              \
    if (b_fast && inside_k) {                                                                                      \
      FAST_COPY(NWG, STAGE_B(stage), pb, b_from, b_step, tb, s)                                                    \
    } else {                                                                                                       \
      async_slab_b(pb, ldb, tb, n0, (s) * KWG, n, k, b_aligned, STAGE_B(stage), gather_b MMA_ARGS);                \
    }                                                                                                              \
  }
  const int slabs = (k + KWG - 1) / KWG;
  // Every work-item commits one group a slab (empty past the last), so that async_wait counts slabs.
  // AHEAD slabs are copied while one is multiplied; with WG_PENDING = 1 a slab's wgmma may still read its
  // stage after the next barrier, so that stage is refilled one slab later.
#define AHEAD (STAGES - 1 - PENDING)
  for (int s = 0; s < AHEAD; ++s) {
    if (s < slabs) COPY_SLAB(s, s)
    async_commit();
  }
  for (int s = 0; s < slabs; ++s) {
    async_wait(AHEAD - 1);  // slab s is in, for this work-item ...
    fence_proxy_async();
    barrier(CLK_LOCAL_MEM_FENCE);  // ... and every other; and slab s - 1 - PENDING's readers are done
    const int next = s + AHEAD;
    if (next < slabs) COPY_SLAB(next % STAGES, next)  // into slab s - 1 - PENDING's stage
    async_commit();
    const int cur = s % STAGES;
#if WGMMA
    wgmma_slab(acc, as4, STAGE_A(cur), ta, bs4, STAGE_B(cur), tb);
    wgmma_wait(WG_PENDING);
  }
  wgmma_wait(0);
  WGMMA_SETTLE(acc)
#else
#pragma unroll
    for (int g = 0; g < KWG / 16; ++g) {
      uint af[MFR][4], bf[NFR][2];
      load_fragments((__local const ushort*)STAGE_A(cur), (__local const ushort*)STAGE_B(cur), !ta, tb, xa, xb, g, lane, af, bf);
#pragma unroll
      for (int i = 0; i < MFR; ++i)
#pragma unroll
        for (int j = 0; j < NFR; ++j) MMA_16816(acc + 4 * (i * NFR + j), af[i], bf[j], lane, emu);
    }
  }
#endif
#undef AHEAD
#undef COPY_SLAB
#undef FAST_CHUNKS
#undef FAST_COPY
#undef STAGE_A
#undef STAGE_B
}

#if WGMMA
// wgmma takes the transpositions as immediates, and ptxas serializes wgmma issued under branches (it
// injects a warpgroup.arrive before each, seen in the SASS on the H100, 2026-11-26): so the loop is instantiated once per
// layout, each with ta and tb constant and its wgmma straight-line.
void xgemm_mma_accumulate(int m, int n, int k, __global const ushort* pa, int lda, int ta, int a_aligned, __global const ushort* pb,
                          int ldb, int tb, int b_aligned, __local uint4* as4, __local uint4* bs4, float acc[MFR * NFR * 4],
                          __local float* emu MMA_PARAMS) {
#define ACCUMULATE_AS(TA, TB) \
  xgemm_mma_accumulate_slabs(m, n, k, pa, lda, TA, a_aligned, pb, ldb, TB, b_aligned, as4, bs4, acc, emu MMA_ARGS)
  if (ta && tb)
    ACCUMULATE_AS(1, 1);
  else if (ta)
    ACCUMULATE_AS(1, 0);
  else if (tb)
    ACCUMULATE_AS(0, 1);
  else
    ACCUMULATE_AS(0, 0);
#undef ACCUMULATE_AS
}
#else
#define xgemm_mma_accumulate xgemm_mma_accumulate_slabs
#endif

#endif  // XGEMM_MMA_ASYNC_H
