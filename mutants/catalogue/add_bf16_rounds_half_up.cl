// bug: a bf16 add whose store rounds ties away from zero ((u + 0x8000) >> 16, a common hand-written conversion) instead of to even
// op: add
// plan: add_bf16_rounds_half_up.plan
// Off by half a bf16 ulp, and only where the float32 sum falls exactly halfway between two bf16
// values: inside every bound. Exact mode judges it, where a quarter of the integers sit at bf16's
// precision edge (Signature::exact_ties): 258 + 1 = 259 must round to 260 (even), 262 + 1 = 263 to 264,
// and this kernel turns 261 (between 260 and 262) into 262 where even is 260.
#include "storage.h"

ushort float_to_bf16_half_up(float f) {
  const uint u = as_uint(f);
  if (isnan(f)) return (ushort)((u >> 16) | 0x40u);
  return (ushort)((u + 0x8000u) >> 16);
}

__kernel void add_half_up(__global const ushort* a, __global const ushort* b, __global ushort* y, int n) {
  const int i = get_global_id(0);
  if (i < n) y[i] = float_to_bf16_half_up(LD(a, i) + LD(b, i));
}
