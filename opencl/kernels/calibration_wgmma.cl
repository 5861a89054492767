// The 16-bit tensor-core peak of a Hopper GPU (bench/calibration.cpp runs it where the device has the
// nvidia_sm90a feature): Hopper's warpgroup MMA, `wgmma.mma_async.m64n256k16` (bf16 operands, float
// accumulators), which cuBLAS's and our wgmma GEMMs use and which runs faster than mma.sync there (the
// mma_peak of calibration_mma.cl is below what cuBLAS's bf16 GEMMs reach, so it is no upper bound on
// Hopper). Each work-group, one warpgroup of 128 work-items, runs 4 instructions a round into the same
// accumulators, one committed group of them left in flight; 4 * 2 * 64 * 256 * 16 FLOPs a warpgroup a
// round, 16384 a work-item. Operands: one K-major slab each in local memory (A 64 x 16, B 256 x 16,
// rows of 32 bytes in the 32-byte swizzle: xgemm_mma_wgmma.h says how the descriptors read them).
#define WGMMA_TYPES "f32.bf16.bf16"
#include "wgmma_ops.h"

// A descriptor of a K-major slab of 32-byte rows: start, leading byte offset 16, stride byte offset 8
// rows (256 bytes), swizzle mode 3 (32 bytes), each offset in 16-byte units.
ulong slab_desc(__local const uint4* p) {
  const uint at = (uint)(ulong)p;
  return (ulong)((at & 0x3FFFF) >> 4) | (ulong)(16 >> 4) << 16 | (ulong)(256 >> 4) << 32 | (ulong)3 << 62;
}

__kernel __attribute__((reqd_work_group_size(128, 1, 1)))
void wgmma_peak(__global float* out, int iters) {
  __local uint4 slab[(64 + 256) * 2] __attribute__((aligned(1024)));  // A's 64 rows, then B's 256, 2 chunks a row
  for (int i = get_local_id(0); i < (64 + 256) * 2; i += 128) {
    const uint v = 0x3F803F80u ^ (uint)i;  // bf16 pairs near 1: no zeros the hardware could skip
    slab[i] = (uint4)(v, v + 1, v + 2, v + 3);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  asm volatile("fence.proxy.async.shared::cta;");  // the stores visible to wgmma's reads
  const ulong da = slab_desc(slab), db = slab_desc(slab + 64 * 2);
  float acc[128];
#pragma unroll
  for (int j = 0; j < 128; ++j) acc[j] = 0.0f;
  asm volatile("//SM90A: wgmma.fence.sync.aligned;");
  for (int i = 0; i < iters; ++i) {
    WGMMA_N256(acc, da, db, 0, 0);
    WGMMA_N256(acc, da, db, 0, 0);
    WGMMA_N256(acc, da, db, 0, 0);
    WGMMA_N256(acc, da, db, 0, 0);
    asm volatile("//SM90A: wgmma.commit_group.sync.aligned;");
    asm volatile("//SM90A: wgmma.wait_group.sync.aligned 1;");
  }
  asm volatile("//SM90A: wgmma.wait_group.sync.aligned 0;");
  float total = 0.0f;
#pragma unroll
  for (int j = 0; j < 128; ++j) {
    asm volatile("" : "+f"(acc[j]));  // read after the wait
    total += acc[j];
  }
  out[get_global_id(0)] = total;
}
