// Storage formats (core/dtype.hpp): a kernel reads and writes its tensors through these, and computes
// in float. The build defines DTYPE_F32, DTYPE_F16 or DTYPE_BF16 for the problem's format (a variant's
// `dtypes` line in its plan lists the ones it takes).
//   real_t         the element type of a tensor's buffer: float, half (f16) or ushort (bf16 words)
//   LD(p, i)       element i of p as a float
//   ST(p, i, v)    stores the float v as element i of p, rounded to nearest even
//   LD4(p)         four consecutive elements from p as a float4 (p aligned to four elements)
//   ST4(p, v)      stores the float4 v at p (p aligned to four elements)
//   LD2(p), ST2(p, v)  the same for two elements (p aligned to two elements)
//   raw4_t, LD4_RAW(p), RAW4_FLOAT(r)  four consecutive elements as stored (float4, or a ushort4 of
//                  16-bit words) from p aligned to four elements, and a raw quad's values as a float4:
//                  values held on chip at their stored size (softmax_held.cl)
//   pair_bits(v)   (f16 and bf16) the float2 v rounded, as the 32-bit word the two elements make in
//                  memory (the first in the low half): ST2 stores it, xgemm_mma.h stages tiles in it
// f16 goes through vload_half/vstore_half_rte, which OpenCL 1.2 has on every device (cl_khr_fp16 is
// not needed: no arithmetic happens in half). bf16 is the top half of a float: widening is a shift,
// narrowing rounds to nearest even (NaN kept NaN with its quiet bit set; in pairs on NVIDIA, the
// canonical NaN: bf16x2_bits).
#ifndef STORAGE_H
#define STORAGE_H

// bf16 words in every build: the bf16 storage below, and kernels of other formats that hand bf16 parts
// of their values to the tensor cores (xgemm_mma_backward_split.cl).
inline float bf16_to_float(ushort h) { return as_float((uint)h << 16); }
inline ushort float_to_bf16(float f) {
  const uint u = as_uint(f);
  if (isnan(f)) return (ushort)((u >> 16) | 0x40u);
  return (ushort)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
// Two floats as the 32-bit word of their bf16s (lo in the low half), each rounded to nearest even. On
// NVIDIA from sm_80 one instruction, cvt.rn.bf16x2.f32, does both (NaN becomes 0x7FFF, still a quiet
// NaN): the 16-bit cross_entropy_bwd's bf16 stores took 11% less time so (H200, 0.2447 -> 0.2167 ms;
// H200, 2026-11-28). Elsewhere float_to_bf16 twice.
#if defined(FEATURE_NVIDIA_SM80)
inline uint bf16x2_bits(float lo, float hi) {
  uint r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}
#else
inline uint bf16x2_bits(float lo, float hi) { return (uint)float_to_bf16(lo) | (uint)float_to_bf16(hi) << 16; }
#endif

#if defined(DTYPE_F16)
#define real_t half  // a macro, not a typedef: the driver reports parameter types by their own names
// NVIDIA's compiler makes vstorea_half2_rte (and _half4_) one 2-byte store a value: the values are
// rounded into registers first, then stored in one access. The wgmma matmul 4096x1024x1024 in f16 took
// 0.0373 ms with the 2-byte stores, 0.0281 so, as bf16 (H100; H100, 2026-11-26).
inline uint pair_bits(float2 v) {
  ushort2 pair;
  vstore_half2_rte(v, 0, (__private half*)&pair);
  return as_uint(pair);
}
inline void st4_half(__global half* p, float4 v) {
  ushort4 quad;
  vstore_half4_rte(v, 0, (__private half*)&quad);
  *(__global ushort4*)p = quad;
}
#define LD(p, i) vload_half((i), (p))
#define ST(p, i, v) vstore_half_rte((v), (i), (p))
#define LD4(p) vloada_half4(0, (p))  // the aligned forms: one 8-byte access
#define ST4(p, v) st4_half((p), (v))
#define LD2(p) vloada_half2(0, (p))  // one 4-byte access
#define ST2(p, v) (*(__global uint*)(p) = pair_bits(v))
#define raw4_t ushort4
#define LD4_RAW(p) (*(__global const ushort4*)(p))
inline float4 half4_bits_to_float4(ushort4 h) { return vload_half4(0, (const __private half*)&h); }
#define RAW4_FLOAT(r) half4_bits_to_float4(r)
#elif defined(DTYPE_BF16)
#define real_t ushort
// A pair's word as two floats: the low half shifted up, the high half masked in place (two instructions
// a pair, where convert_uint4(h) << 16 took NVIDIA's compiler seven a quad).
inline float4 bf16x4_to_float4(ushort4 h) {
  const uint2 w = as_uint2(h);
  return as_float4((uint4)(w.x << 16, w.x & 0xFFFF0000u, w.y << 16, w.y & 0xFFFF0000u));
}
inline ushort4 float4_to_bf16x4(float4 f) { return as_ushort4((uint2)(bf16x2_bits(f.x, f.y), bf16x2_bits(f.z, f.w))); }
#define LD(p, i) bf16_to_float((p)[i])
#define ST(p, i, v) ((p)[i] = float_to_bf16(v))
#define LD4(p) RAW4_FLOAT(LD4_RAW(p))  // one 8-byte access
#define ST4(p, v) (*(__global ushort4*)(p) = float4_to_bf16x4(v))
#define LD2(p) as_float2(convert_uint2(*(__global const ushort2*)(p)) << 16)  // one 4-byte access
inline uint pair_bits(float2 v) { return bf16x2_bits(v.x, v.y); }
#define ST2(p, v) (*(__global uint*)(p) = pair_bits(v))
#define raw4_t ushort4
#define LD4_RAW(p) (*(__global const ushort4*)(p))
#define RAW4_FLOAT(r) bf16x4_to_float4(r)
#else
#define real_t float
#define LD(p, i) ((p)[i])
#define ST(p, i, v) ((p)[i] = (v))
#define LD4(p) (*(__global const float4*)(p))  // one 16-byte access
#define ST4(p, v) (*(__global float4*)(p) = (v))
#define LD2(p) (*(__global const float2*)(p))  // one 8-byte access
#define ST2(p, v) (*(__global float2*)(p) = (v))
#define raw4_t float4
#define LD4_RAW(p) LD4(p)
#define RAW4_FLOAT(r) (r)
#endif

// The same six for float32 in every build: scratch buffers, and tensors that stay float32 whatever the
// format (class indices), through code written once for both (xgemm.h's loaders, columns.h).
#define LD_FLOAT(p, i) ((p)[i])
#define ST_FLOAT(p, i, v) ((p)[i] = (v))
#define LD4_FLOAT(p) (*(__global const float4*)(p))
#define ST4_FLOAT(p, v) (*(__global float4*)(p) = (v))
#define LD2_FLOAT(p) (*(__global const float2*)(p))
#define ST2_FLOAT(p, v) (*(__global float2*)(p) = (v))

#endif  // STORAGE_H
