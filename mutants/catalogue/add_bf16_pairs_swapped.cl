// bug: a bf16 add that reads its inputs two words per 32-bit load and takes the wrong half of each (element 2i from the high half)
// op: add
// plan: add_bf16_pairs_swapped.plan
// bf16 is the top half of a float, and a pair of bf16 words is one uint; which half holds which element
// depends on the byte order. This kernel assumes big-endian pairs: elements 2i and 2i+1 come out
// swapped on every little-endian device. (The last word of an odd-length tensor is read from the pair
// that ends in the guard zone: a read, which the guards do not catch; the values do.)
#include "storage.h"

float bf16_half_of(__global const ushort* p, long i) {
  const uint pair = ((__global const uint*)p)[i / 2];
  return as_float((i % 2 == 0 ? (pair >> 16) : (pair & 0xFFFFu)) << 16);
}

__kernel void add_pairs(__global const ushort* a, __global const ushort* b, __global ushort* y, int n) {
  const int i = get_global_id(0);
  if (i < n) ST(y, i, bf16_half_of(a, i) + bf16_half_of(b, i));
}
