// A matmul in bf16x3, as split-bf16 tensor-core GEMMs compute float32 products: each input split into
// bf16 parts hi + lo (each rounded to nearest even), the products hi*hi + hi*lo + lo*hi kept (lo*lo
// dropped), summed in float32. Judged in its numeric mode (docs/verification.md, "Numeric modes"):
//   plumbline check matmul --kernel-file examples/kernels/matmul_bf16x3.cl --entry matmul_bf16x3 --math bf16x3
// A part of 0 never meets an Inf (0 x Inf = NaN where the product is infinite): such products are left out.

// x rounded to bf16 (7 explicit mantissa bits), to nearest even; Inf and NaN as they are.
float to_bf16(float x) {
  const uint u = as_uint(x);
  if ((u & 0x7f800000u) == 0x7f800000u) return x;
  return as_float((u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u);
}
float part_lo(float x, float hi) { return isfinite(hi) ? to_bf16(x - hi) : 0.0f; }
float times(float p, float q) { return p == 0.0f || q == 0.0f ? 0.0f : p * q; }

#ifndef SPLIT_PRODUCTS
#define SPLIT_PRODUCTS(ah, al, bh, bl) (ah * bh + times(ah, bl) + times(al, bh))
#endif

__kernel void matmul_bf16x3(__global const float* a, __global const float* b, __global float* y, int batch, int m, int k, int n, int ta, int tb) {
  const int col = get_global_id(0), row = get_global_id(1);
  const long bi = get_global_id(2);
  if (row >= m || col >= n) return;
  a += bi * m * k, b += bi * k * n;
  float acc = 0.0f;
  for (int l = 0; l < k; ++l) {
    const float av = a[ta ? (long)l * m + row : (long)row * k + l], bv = b[tb ? (long)col * k + l : (long)l * n + col];
    const float ah = to_bf16(av), bh = to_bf16(bv), al = part_lo(av, ah), bl = part_lo(bv, bh);
    acc += SPLIT_PRODUCTS(ah, al, bh, bl);
  }
  y[bi * m * n + (long)row * n + col] = acc;
}
