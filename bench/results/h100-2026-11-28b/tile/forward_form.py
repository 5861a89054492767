# Writes the forward's diagnostic form into a copy of opencl/kernels (stop 53): xgemm_mma_bias_act's
# epilogue inside activation.h's ACT_CONSTANT, the activation's code a constant in each copy.
# python3 forward_form.py DIR
import sys
p = sys.argv[1] + "/xgemm_mma_bias_act.cl"
t = open(p).read()
old = """#define BIAS_ACT(v, row, col) EPILOGUE_ACT_VALUE(act, (v) + LD(bias, col))
  STORE_FRAGMENTS(c + z * c_batch, ldc, c_batch, m, n, BIAS_ACT)"""
assert t.count(old) == 1
t = t.replace(old, """#define BIAS_ACT(v, row, col) EPILOGUE_ACT_VALUE(ACT_KIND, (v) + LD(bias, col))
  ACT_CONSTANT(act, STORE_FRAGMENTS(c + z * c_batch, ldc, c_batch, m, n, BIAS_ACT))""")
open(p, "w").write(t)
