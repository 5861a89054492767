# Diagnostic forms of softmax_held.cl (stop 54, call 3), edited in place in a copy of opencl/kernels.
#   cvt:   bf16's quads stored through cvt.rn.bf16x2.f32 (storage.h), prepared for the next stop
#   recip: the outputs' softmax as exp(v - max) * (1 / sum), one reciprocal a row, where CE_GRAD4 divides
#          each value (a division is a reciprocal and a correction on the H100: the multi-function unit
#          also does both exp's)
# python3 held_forms.py DIR FORM
import sys
d, form = sys.argv[1:]
p = f"{d}/softmax_held.cl"
t = open(p).read()
if form == "recip":
    old = "  const float scale = LD(d_loss, 0) / (float)b;\n"
    assert t.count(old) == 1
    t = t.replace(old, old + """  const float inv_sum = 1.0f / sum;
#undef CE_GRAD4
#undef CE_GRAD1
#define CE_GRAD4(v, j) (scale * (exp((v) - mx) * inv_sum + convert_float4((int4)(j) + (int4)(0, 1, 2, 3) == (int4)(t))))
#define CE_GRAD1(v, j) (scale * (exp((v) - mx) * inv_sum - ((j) == t ? 1.0f : 0.0f)))
""")
elif form == "cvt":
    # (prepared in stop 54 for the next stop, not run) bf16's stores through sm_80's conversion
    # instructions, two values in one cvt.rn.bf16x2.f32, where storage.h rounds in integer arithmetic;
    # NVIDIA only (inline PTX), so checked by bench on the H100 alone. NaN becomes the canonical NaN.
    s = f"{d}/storage.h"
    u = open(s).read()
    old = """inline ushort4 float4_to_bf16x4(float4 f) {
  return (ushort4)(float_to_bf16(f.x), float_to_bf16(f.y), float_to_bf16(f.z), float_to_bf16(f.w));
}"""
    assert u.count(old) == 1
    u = u.replace(old, """inline uint bf16x2_bits(float lo, float hi) {
  uint r;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
  return r;
}
inline ushort4 float4_to_bf16x4(float4 f) {
  return as_ushort4((uint2)(bf16x2_bits(f.x, f.y), bf16x2_bits(f.z, f.w)));
}""")
    open(s, "w").write(u)
else:
    raise SystemExit("form: recip or cvt")
open(p, "w").write(t)
