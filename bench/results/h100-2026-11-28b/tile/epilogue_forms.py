# Writes a diagnostic form of xgemm_mma_grad_pairs's epilogue into a copy of opencl/kernels (stop 53):
#   ahead1: each work-item loads its next row's d_y before it computes and stores this row's G
#   ahead2: two rows ahead
# python3 epilogue_forms.py DIR FORM   (DIR: the copy; its xgemm_mma_backward_split.cl is edited in place)
import sys
d, form = sys.argv[1:]
p = d + "/xgemm_mma_backward_split.cl"
t = open(p).read()
old = """#pragma unroll 1
    for (int r = lid / GP_CPR; active && r < rows; r += GP_STEP) {
      const int row = m0 + first + r;
      if (row >= m) break;
      const long at = (long)row * n + col;
      __local const float* const z = tile + r * GP_LD + cc;
      const uint4 dy = *(__global const uint4*)(d_y + at);
"""
assert t.count(old) == 1
LD = "*(__global const uint4*)(d_y + (long)(m0 + first + (R)) * n + col)"
def load(r):
    return f"(active && ({r}) < rows && m0 + first + ({r}) < m ? {LD.replace('(R)', '(' + r + ')')} : (uint4)(0))"
r0 = "lid / GP_CPR"
if form == "ahead1":
    new = f"""    uint4 n1 = {load(r0)};
#pragma unroll 1
    for (int r = lid / GP_CPR; active && r < rows; r += GP_STEP) {{
      const int row = m0 + first + r;
      if (row >= m) break;
      const long at = (long)row * n + col;
      __local const float* const z = tile + r * GP_LD + cc;
      const uint4 dy = n1;
      n1 = {load("r + GP_STEP")};
"""
elif form == "ahead2":
    new = f"""    uint4 n1 = {load(r0)}, n2 = {load(r0 + " + GP_STEP")};
#pragma unroll 1
    for (int r = lid / GP_CPR; active && r < rows; r += GP_STEP) {{
      const int row = m0 + first + r;
      if (row >= m) break;
      const long at = (long)row * n + col;
      __local const float* const z = tile + r * GP_LD + cc;
      const uint4 dy = n1;
      n1 = n2;
      n2 = {load("r + 2 * GP_STEP")};
"""
else:
    raise SystemExit("form: ahead1 or ahead2")
open(p, "w").write(t.replace(old, new))
