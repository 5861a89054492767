# The next stop's diagnostic forms (written in stop 53, not run: the device budget was spent): the other
# loops that call act_value or act_slope with the activation's code a variable, inside activation.h's
# ACT_CONSTANT as stop 53 landed it for xgemm_mma_grad_pairs and xgemm_mma_bias_act.
#   pre_split: grad_pre_split's row loop (wgmma_split3's G pass, f16; wgmma_split's, bf16 with n % 8 != 0)
#   pre_f32: grad_pre_partial_sums's row loop (the float32 xgemm backward's G pass)
#   fwd_f32: xgemm_bias_act's STORE_TILE (the float32 xgemm forward; its ACT_CALL=0 path)
# python3 act_forms.py DIR FORM   (DIR: a copy of opencl/kernels, edited in place)
import sys
d, form = sys.argv[1:]


def edit(name, old, new):
    p = f"{d}/{name}"
    t = open(p).read()
    assert t.count(old) == 1, (name, old[:60])
    open(p, "w").write(t.replace(old, new))


def loop_of(name, head, tail):
    """The text from head to tail (inclusive) of file name."""
    t = open(f"{d}/{name}").read()
    a = t.index(head)
    return t[a:t.index(tail, a) + len(tail)]


def row_loop_in_act_constant(name, loop_head):
    """The row loop from loop_head to the line before `partial[` inside ACT_CONSTANT, act_slope on ACT_KIND."""
    old = loop_of(name, loop_head, "\n  }\n  partial[")
    body = old[: -len("\n  partial[")]
    edit(name, old, "  ACT_CONSTANT(act,\n" + body.replace("act_slope(act,", "act_slope(ACT_KIND,") + ")\n  partial[")


if form == "pre_split":
    row_loop_in_act_constant("xgemm_mma_backward_split.cl",
                             "  for (long r = r0; r < r1; ++r) {\n    const long i = r * n + col;\n    if (n % 2 == 0) {")
elif form == "pre_f32":
    row_loop_in_act_constant("xgemm_backward.cl",
                             "  for (long r = r0; r < r1; ++r) {\n    const long i = r * n + col;\n    const float v = LD(d_y, i) * act_slope(act, g[i] + b);")
elif form == "fwd_f32":
    edit("xgemm_bias_act.cl", "#define BIAS_ACT(v, row, col) EPILOGUE_ACT_VALUE(act, (v) + LD(bias, col))",
         "#define BIAS_ACT(v, row, col) EPILOGUE_ACT_VALUE(ACT_KIND, (v) + LD(bias, col))")
    edit("xgemm_bias_act.cl", "#else\n  STORE_TILE(c, ldc, m, n, BIAS_ACT)\n#endif",
         "#else\n  ACT_CONSTANT(act, STORE_TILE(c, ldc, m, n, BIAS_ACT))\n#endif")
else:
    raise SystemExit("form: pre_split, pre_f32 or fwd_f32")
