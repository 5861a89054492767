// GEMM family in the graph IR: matmul, gemm_bias_act and its backward outputs.
#include "egraph/ops/common.hpp"

namespace plumbline::graph {

static Binding bind_matmul(const std::vector<Shape>& in, const Attrs& a) {
  need_rank("matmul", in, 0, {2, 3});
  need_rank("matmul", in, 1, {2, 3});
  const Shape &A = in[0], &B = in[1];
  const bool ta = attr_i(a, "ta"), tb = attr_i(a, "tb");
  return {{"batch", A.rank() == 3 ? A[0] : int64_t{0}},
          {"m", ta ? dim(A, -1) : dim(A, -2)},
          {"k", ta ? dim(A, -2) : dim(A, -1)},
          {"n", tb ? dim(B, -2) : dim(B, -1)}};
}

static Binding bind_gemm(const std::vector<Shape>& in, const Attrs&) {
  need_rank("gemm_bias_act", in, 0, {2, 3});
  need_rank("gemm_bias_act", in, 1, {2, 3});
  const int64_t batch = in[0].rank() == 3 ? in[0][0] : 0;
  return {
      {"batch", batch}, {"m", dim(in[0], -2)}, {"k", dim(in[0], -1)}, {"n", dim(in[1], -1)}, {"bshared", int64_t{batch > 0 && in[1].rank() == 2}}};
}

// Y = op(A) op(B). Each gradient is one matmul with the flags that avoid any transpose pass.
static std::vector<int> matmul_vjp(Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) {
  const int64_t ta = attr_i(a, "ta"), tb = attr_i(a, "tb");
  const int A = x[0], B = x[1];
  auto mm = [&](int l, int r, int64_t fl, int64_t fr) { return g.add("matmul", {l, r}, {{"ta", fl}, {"tb", fr}}); };
  // dop(A) = dY op(B)^T; dop(B) = op(A)^T dY; a transposed operand gets the transpose of its gradient.
  const int dA = ta ? mm(B, dy, tb, 1) : mm(dy, B, 0, 1 - tb);
  const int dB = tb ? mm(dy, A, 1, ta) : mm(A, dy, 1 - ta, 0);
  return {dA, dB};
}

void add_gemm_graph_ops(std::vector<GraphOp>& ops) {
  GraphOp mm = registry_graph_op("matmul", "matmul", "y", 2, 2, {"batch", "m", "k", "n"}, bind_matmul);
  mm.vjp = matmul_vjp;
  ops.push_back(mm);

  const std::vector<std::string> gemm_shape{"batch", "m", "k", "n", "bshared"};
  GraphOp fused = registry_graph_op("gemm_bias_act", "gemm_bias_act", "y", 3, 3, gemm_shape, bind_gemm);
  fused.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) -> std::vector<int> {
    std::vector<int> grads;
    for (const char* out : {"gemm_bias_act_bwd.d_a", "gemm_bias_act_bwd.d_b", "gemm_bias_act_bwd.d_bias"})
      grads.push_back(add_like(g, out, {x[0], x[1], x[2], dy}, a));
    return grads;
  };
  ops.push_back(fused);
  for (const char* out : {"d_a", "d_b", "d_bias"})
    ops.push_back(registry_graph_op(std::string("gemm_bias_act_bwd.") + out, "gemm_bias_act_bwd", out, 4, 4, gemm_shape, bind_gemm));
}

}  // namespace plumbline::graph
