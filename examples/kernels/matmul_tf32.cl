// A matmul in TF32, as tensor cores take float32 operands: each product's inputs rounded to 10
// explicit mantissa bits (to nearest, ties to even), the products summed in float32. Outside the
// exact contract by design; judged in its numeric mode (docs/verification.md, "Numeric modes"):
//   plumbline check matmul --kernel-file examples/kernels/matmul_tf32.cl --entry matmul_tf32 --math tf32
// On the default ABI (matmul's seed launch: one output per work-item, 16x16 work-groups).
#ifndef TF32_BITS
#define TF32_BITS 10  // explicit mantissa bits kept
#endif

// x rounded to TF32_BITS explicit mantissa bits, to nearest even; Inf and NaN as they are.
float to_tf32(float x) {
  const uint u = as_uint(x), drop = 23 - TF32_BITS;
  if ((u & 0x7f800000u) == 0x7f800000u) return x;
  const uint lsb = (u >> drop) & 1u;
  return as_float((u + ((1u << (drop - 1)) - 1u) + lsb) & ~((1u << drop) - 1u));
}

__kernel void matmul_tf32(__global const float* a, __global const float* b, __global float* y, int batch, int m, int k, int n, int ta, int tb) {
  const int col = get_global_id(0), row = get_global_id(1);
  const long bi = get_global_id(2);
  if (row >= m || col >= n) return;
  a += bi * m * k, b += bi * k * n;
  float acc = 0.0f;
  for (int l = 0; l < k; ++l) acc += to_tf32(a[ta ? (long)l * m + row : (long)row * k + l]) * to_tf32(b[tb ? (long)col * k + l : (long)l * n + col]);
  y[bi * m * n + (long)row * n + col] = acc;
}
