# Diagnostic forms of softmax_held.cl (stop 54, call 3), edited in place in a copy of opencl/kernels.
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
else:
    raise SystemExit("form: recip")
open(p, "w").write(t)
