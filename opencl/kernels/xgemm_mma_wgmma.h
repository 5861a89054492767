// The tensor-core core's multiply with WGMMA=1 (xgemm_mma_async.h includes it; ASYNC=1's copies fill
// the slabs): Hopper's warpgroup MMA, `wgmma.mma_async.m64nNk16` (sm_90), reads both operands from the
// slabs itself, so no ldmatrix and no fragments in registers; it runs asynchronously, WG_PENDING (0 or
// 1) slabs' worth of it still in flight while the next barrier is passed. CUTLASS's sm90 GEMMs feed it
// through TMA; NVIDIA's OpenCL has no TMA, so cp.async does (the copy loop of xgemm_mma_async.h).
//
// Shape: a warpgroup (4 consecutive warps, 128 work-items) computes 64 rows x NWG columns, so NWARPS = 1,
// MWG = 16 * MWARPS and MWARPS is a multiple of 4. Warp w of warpgroup g holds rows 64 g + 16 w .. + 15
// in the layout of mma.sync's 16 x 8 accumulators, one a column group of 8 (MFR = 1, NFR = NWG / 8):
// STORE_FRAGMENTS serves both.
//
// Slabs: in the instruction's swizzled layouts (PTX ISA, "Shared Memory Matrix Layout"; CUTLASS's
// GMMA layouts SW32/SW64/SW128), whose reads hit every bank once. An atom is 8 rows of W bytes (W =
// 32, 64 or 128), 8 W bytes aligned to 8 W; within it, 16-byte chunk j of row i sits at i W + 16 (j ^
// s(i)), the XOR taking the address's bits 7.. onto its bits 4.. (WG_SWIZZLE):
//   depth-contiguous operand (K-major: A with ta = 0, B with tb = 1): a row of the slab (x) is a row
//     of an atom, W = 2 KWG (all its depths); atoms of 8 rows follow each other (the descriptor's
//     stride byte offset, 8 W).
//   row-contiguous operand (MN-major: A with ta = 1, B with tb = 0): a depth row of the slab is split
//     into atoms' rows of W bytes, the widest of 128, 64, 32 that divides it; the atoms of 8 depths
//     follow each other (stride byte offset 8 W), those of the next W / 2 of x come after all depths
//     (leading byte offset KWG W).
// Copies keep ASYNC=1's order (lanes along a row), which writes 8 distinct bank groups a quarter-warp.
// The stages start at multiples of 1024 bytes (XGEMM_MMA_LOCALS), so that atoms are aligned.
//
// NVIDIA's OpenCL compiler writes PTX for sm_90, and wgmma needs sm_90a: each sm_90a instruction is
// written behind `//SM90A: ` (a PTX comment to the compiler, which still binds its registers), and
// opencl/runtime.cpp builds the PTX again with the marker gone and `.target sm_90a` (variants that use
// this file need nvidia_sm90a: compute capability 9.0).
//
// With MMA_EMULATE each work-item computes its accumulators from the slabs through the descriptors
// (wgmma_element decodes them as the hardware is documented to), so the copies' placement and the
// descriptors are checked on any device; the hardware's reading of them only on an sm_90 GPU.
#ifndef XGEMM_MMA_WGMMA_H
#define XGEMM_MMA_WGMMA_H

#if NWARPS != 1 || MWG != 16 * MWARPS || MWARPS % 4 != 0
#error "xgemm_mma: WGMMA=1 takes warpgroups of 64 rows: NWARPS = 1, MWG = 16 * MWARPS, MWARPS a multiple of 4"
#endif
#if NWG != 32 && NWG != 64 && NWG != 96 && NWG != 128 && NWG != 192 && NWG != 256
#error "xgemm_mma: WGMMA=1 takes NWG of 32, 64, 96, 128, 192 or 256 (wgmma_ops.h)"
#endif
#ifndef WG_PENDING
#define WG_PENDING 0  // slabs of wgmma left in flight at the next barrier (0 or 1; STAGES >= 2 + WG_PENDING)
#endif
#if WG_PENDING < 0 || WG_PENDING > 1 || STAGES < 2 + WG_PENDING
#error "xgemm_mma: WG_PENDING takes 0 or 1, and STAGES >= 2 + WG_PENDING"
#endif

#if MMA_OPERANDS_F16
#define WGMMA_TYPES "f32.f16.f16"
#else
#define WGMMA_TYPES "f32.bf16.bf16"
#endif
#include "wgmma_ops.h"
#define WGMMA_OP_(N) WGMMA_N##N
#define WGMMA_OP(N) WGMMA_OP_(N)

// The atoms' row width W in bytes of a slab of XWG rows (K-major) or of XWG columns (MN-major), its
// swizzle, and the descriptor's mode for it (bits 62-63: 1 = 128 B, 2 = 64 B, 3 = 32 B).
#define WG_ROW_BYTES(XWG, mn_major) ((mn_major) ? ((XWG) % 64 == 0 ? 128 : (XWG) % 32 == 0 ? 64 : 32) : 2 * KWG)
#define WG_SWIZZLE(o, w) ((o) ^ ((((o) >> 7) & ((w) / 16 - 1)) << 4))  // o: a byte offset from an aligned base
#define WG_MODE(w) ((w) == 128 ? 1 : (w) == 64 ? 2 : 3)
#if KWG > 64 || (MWG * KWG * 2) % 1024 != 0 || (NWG * KWG * 2) % 1024 != 0
#error "xgemm_mma: WGMMA=1 takes KWG up to 64 (a K-major row is one atom's row) and slabs of whole 1024-byte blocks"
#endif

// Chunk (r, c) of a slab (SLAB_ROW, SLAB_COL of xgemm_mma_async.h: row r of cpr chunks), in 16-byte
// chunks from the slab's start, as this file's head lays it out.
int wg_chunk(int r, int c, int cpr, int contiguous_depth) {
  if (contiguous_depth) {  // row x = r, depths 8c ..: row r % 8 of atom r / 8
    const int w = 2 * KWG;
    return WG_SWIZZLE(r / 8 * 8 * w + r % 8 * w + 16 * c, w) / 16;
  }
  const int w = WG_ROW_BYTES(8 * cpr, 1), per = w / 16;  // depth r, x 8c ..: chunks per atom row
  return (c / per * KWG * w + WG_SWIZZLE(r / 8 * 8 * w + r % 8 * w + 16 * (c % per), w)) / 16;
}

// A shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor Format"): start address, leading and
// stride byte offsets, each in 16-byte units, base offset 0, the swizzle mode. xwg: the slab's rows.
ulong wgmma_desc(uint at, int mn_major, int xwg) {
  const uint w = WG_ROW_BYTES(xwg, mn_major), lbo = mn_major ? KWG * w : 16, sbo = 8 * w;
  return (ulong)((at & 0x3FFFF) >> 4) | (ulong)(lbo >> 4) << 16 | (ulong)(sbo >> 4) << 32 | (ulong)WG_MODE(w) << 62;
}
// Where warpgroup g's A starts in its slab, and how far a 16-deep step moves an operand, in bytes.
int wg_a_offset(int g, int mn_major) {
  const int w = WG_ROW_BYTES(MWG, mn_major);
  return mn_major ? 64 * g / (w / 2) * KWG * w : 64 * g * w;
}
#define WG_STEP(mn_major, xwg) ((mn_major) ? 16 * WG_ROW_BYTES(xwg, 1) : 32)

// The address a descriptor takes: the shared window's address; emulated, the offset from the slabs' base.
#if MMA_EMULATE
#define WG_ADDRESS(base, p) ((uint)((__local const uchar*)(p) - (__local const uchar*)(base)))
#else
#define WG_ADDRESS(base, p) ((uint)(ulong)(p))
#endif

void wgmma_fence(void) {
#if !MMA_EMULATE
  asm volatile("//SM90A: wgmma.fence.sync.aligned;");
#endif
}
void wgmma_commit(void) {
#if !MMA_EMULATE
  asm volatile("//SM90A: wgmma.commit_group.sync.aligned;");
#endif
}
// Until at most n (0 or 1) of this warpgroup's groups are in flight.
void wgmma_wait(int n) {
#if !MMA_EMULATE
  if (n <= 0)
    asm volatile("//SM90A: wgmma.wait_group.sync.aligned 0;");
  else
    asm volatile("//SM90A: wgmma.wait_group.sync.aligned 1;");
#endif
}
// The slab's copies (cp.async, the generic proxy) made visible to wgmma's reads (the async proxy).
void fence_proxy_async(void) {
#if !MMA_EMULATE
  asm volatile("fence.proxy.async.shared::cta;");
#endif
}
// After the last wait: each accumulator's later reads stay after it (an empty asm that "writes" it).
#if MMA_EMULATE
#define WGMMA_SETTLE(acc)
#else
#define WGMMA_SETTLE(acc)                                     \
  _Pragma("unroll") for (int i_ = 0; i_ < MFR * NFR * 4; ++i_) \
    asm volatile("" : "+f"((acc)[i_]));
#endif

#if MMA_EMULATE
// Element (x, k) of the operand that descriptor d describes (x: the row of A or the column of B),
// from the slabs at base, read as the instruction reads it.
float wgmma_element(__local const ushort* base, ulong d, int mn_major, int x, int k) {
  const int at = (int)(d & 0x3FFF) << 4, lbo = (int)((d >> 16) & 0x3FFF) << 4, sbo = (int)((d >> 32) & 0x3FFF) << 4;
  const int mode = (int)(d >> 62), w = mode == 1 ? 128 : mode == 2 ? 64 : mode == 3 ? 32 : 0;
  if (!w) return NAN;  // an unswizzled descriptor: not what this file makes
  const int o = mn_major ? at + x / (w / 2) * lbo + k / 8 * sbo + k % 8 * w + x % (w / 2) * 2  // x along the atom's rows
                         : at + x / 8 * sbo + x % 8 * w + 2 * k;                                // k along them
  return raw_to_float(base[WG_SWIZZLE(o, w) / 2]);
}
// One m64nNk16 of the warpgroup, each work-item its own accumulators.
void wgmma_emulated(float acc[MFR * NFR * 4], __local const uint4* as, ulong da, int ta, __local const uint4* bs, ulong db, int tb) {
  const int lane = get_local_id(0) % 32, w = get_local_id(0) / 32 % 4, gi = lane / 4, t = lane % 4;
  for (int j = 0; j < NFR; ++j)
    for (int e = 0; e < 4; ++e) {
      const int row = 16 * w + gi + 8 * (e / 2), col = 8 * j + 2 * t + e % 2;
      float sum = acc[4 * j + e];
      for (int k = 0; k < 16; ++k)
        sum += wgmma_element((__local const ushort*)as, da, ta, row, k) * wgmma_element((__local const ushort*)bs, db, !tb, col, k);
      acc[4 * j + e] = sum;
    }
}
#define WGMMA_ISSUE(acc, as, da, ta, bs, db, tb) wgmma_emulated(acc, as, da, ta, bs, db, tb);
#else
// trans-a: A row-contiguous (ta = 1); trans-b: B row-contiguous (tb = 0). Immediates: four forms.
#define WGMMA_ISSUE(acc, as, da, ta, bs, db, tb) \
  if (ta) {                                     \
    if (tb) {                                   \
      WGMMA_OP(NWG)(acc, da, db, 1, 0);         \
    } else {                                    \
      WGMMA_OP(NWG)(acc, da, db, 1, 1);         \
    }                                           \
  } else {                                      \
    if (tb) {                                   \
      WGMMA_OP(NWG)(acc, da, db, 0, 0);         \
    } else {                                    \
      WGMMA_OP(NWG)(acc, da, db, 0, 1);         \
    }                                           \
  }
#endif

// This warpgroup's share of one slab (a_stage, b_stage: its stages; as4, bs4: the slabs' bases):
// KWG / 16 instructions, committed as one group.
void wgmma_slab(float acc[MFR * NFR * 4], __local const uint4* as4, __local const uint4* a_stage, int ta, __local const uint4* bs4,
                __local const uint4* b_stage, int tb) {
  const int g = get_local_id(0) / 128;  // the warpgroup: rows 64 g .. 64 g + 63 of the tile
  wgmma_fence();
#pragma unroll
  for (int kk = 0; kk < KWG / 16; ++kk) {  // 16 deep at a time
    const ulong da = wgmma_desc(WG_ADDRESS(as4, (__local const uchar*)a_stage + wg_a_offset(g, ta) + kk * WG_STEP(ta, MWG)), ta, MWG);
    const ulong db = wgmma_desc(WG_ADDRESS(bs4, (__local const uchar*)b_stage + kk * WG_STEP(!tb, NWG)), !tb, NWG);
    WGMMA_ISSUE(acc, as4, da, ta, bs4, db, tb)
  }
  wgmma_commit();
}

#endif  // XGEMM_MMA_WGMMA_H
