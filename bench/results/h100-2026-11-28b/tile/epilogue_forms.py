# Writes a diagnostic form of xgemm_mma_grad_pairs's epilogue into a copy of opencl/kernels (stop 53):
#   ahead1: each work-item loads its next row's d_y before it computes and stores this row's G
#   ahead2: two rows ahead
#   twice: the whole epilogue (staging, G, its pairs' stores, the sums) run twice: the difference to the
#     landed form is the epilogue's own time (a diagnostic: the same outputs, written twice)
#   unroll2: the row loop unrolled by 2, d_y and the parts restrict (so the compiler may load ahead)
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
elif form == "twice":
    a = "  for (int round = 0; round * GP_WARPS < MWARPS; ++round) {"
    b = "  barrier(CLK_LOCAL_MEM_FENCE);  // the last round's rows read"
    assert t.count(a) == 1 and t.count(b) == 1
    t = t.replace(a, "  for (int rep = 0; rep < 2; ++rep) {\n  for (int q = 0; q < 8; ++q) sum8[q] = 0.0f;\n" + a)
    t = t.replace(b, "  }\n" + b)
    new = old
elif form == "unroll2":
    s = "__global const real_t* d_y_,\n                          __global const real_t* bias, int act, __global real_t* parts_,"
    assert t.count(s) == 1, "signature"
    t = t.replace(s, s.replace("d_y_,", "restrict d_y_,").replace("parts_,", "restrict parts_,"))
    new = old.replace("#pragma unroll 1", "#pragma unroll 2")
else:
    raise SystemExit("form: ahead1, ahead2, twice or unroll2")
open(p, "w").write(t.replace(old, new))
# (applies to the kernel as of 6defdc5: call 6's landed form moved the row loop into gp_rows)
