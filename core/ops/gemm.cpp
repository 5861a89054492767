// GEMM family: matmul, gemm_bias_act and its backward.
#include "core/ops/families.hpp"

namespace plumbline {

double activation_flops(const std::string& kind) {
  if (kind == "none") return 0;
  if (kind == "relu") return 1;
  if (kind == "sigmoid" || kind == "tanh") return 4;
  if (kind == "silu") return 5;
  return 8;  // gelu_tanh, gelu_erf
}

namespace {

Shape batched(int64_t batch, int64_t rows, int64_t cols) { return batch > 0 ? Shape{batch, rows, cols} : Shape{rows, cols}; }

Signature matmul_signature(const Problem& p) {
  require_flag(p, "ta");
  require_flag(p, "tb");
  const int64_t b = p.i("batch"), m = p.i("m"), k = p.i("k"), n = p.i("n");
  Signature s;
  s.inputs = {{"a", p.i("ta") ? batched(b, k, m) : batched(b, m, k)}, {"b", p.i("tb") ? batched(b, n, k) : batched(b, k, n)}};
  s.outputs = {{"y", batched(b, m, n)}};
  s.flops = 2.0 * std::max<int64_t>(b, 1) * m * n * k;
  return s;
}

// B is [K,N] when there is no batch or when it is shared across the batch, else [batch,K,N].
Shape gemm_b_shape(const Problem& p) { return p.i("bshared") ? Shape{p.i("k"), p.i("n")} : batched(p.i("batch"), p.i("k"), p.i("n")); }

Signature gemm_bias_act_signature(const Problem& p) {
  require_flag(p, "bshared");
  require(p.i("bshared") == 0 || p.i("batch") > 0, p, "bshared=1 needs a batch (batch > 0)");
  const int64_t b = p.i("batch"), m = p.i("m"), k = p.i("k"), n = p.i("n");
  Signature s;
  s.inputs = {{"a", batched(b, m, k)}, {"b", gemm_b_shape(p)}, {"bias", Shape{n}}};
  s.outputs = {{"y", batched(b, m, n)}};
  s.flops = static_cast<double>(std::max<int64_t>(b, 1)) * m * n * (2.0 * k + 1 + activation_flops(p.s("act")));
  return s;
}

Signature gemm_bias_act_bwd_signature(const Problem& p) {
  Signature f = gemm_bias_act_signature(p);
  Signature s;
  s.inputs = {f.inputs[0], f.inputs[1], f.inputs[2], {"d_y", f.outputs[0].shape}};
  s.outputs = {{"d_a", f.inputs[0].shape}, {"d_b", f.inputs[1].shape}, {"d_bias", f.inputs[2].shape}};
  // d_a and d_b (two GEMMs), after the pre-activation's recompute (a third) where the activation's
  // derivative needs it: with act=none d_y is the pre-activation's gradient and no kernel recomputes.
  s.flops = (p.s("act") == "none" ? 2.0 : 3.0) * f.flops;
  return s;
}

std::vector<AttrSpec> gemm_attrs(bool with_trans) {
  std::vector<AttrSpec> a{int_attr("batch", 0, 0, "batch count; 0 means no batch dimension"), int_attr("m", 1, 1, "rows of A and Y"),
                          int_attr("k", 1, 1, "reduction length"), int_attr("n", 1, 1, "columns of B and Y")};
  if (with_trans) {
    a.push_back(flag_attr("ta", 0, "1: A is stored transposed ([K,M])"));
    a.push_back(flag_attr("tb", 0, "1: B is stored transposed ([N,K])"));
  } else {
    a.push_back(enum_attr("act", "none", activation_kinds(), "activation applied after the bias"));
    a.push_back(flag_attr("bshared", 0, "1: B is [K,N], shared by every batch entry (d_b sums over the batch)"));
  }
  return a;
}

}  // namespace

void add_gemm_ops(std::vector<OpSpec>& ops) {
  ops.push_back({"matmul", "gemm", "Y = op(A) @ op(B), op = optional transpose; optional batch", "", with_dtype(gemm_attrs(true)), matmul_signature});
  ops.push_back(
      {"gemm_bias_act", "gemm", "Y = act(A @ B + bias[N]); B shared or batched", "", with_dtype(gemm_attrs(false)), gemm_bias_act_signature});
  ops.push_back({"gemm_bias_act_bwd", "gemm", "d_a, d_b, d_bias of gemm_bias_act given d_y", "gemm_bias_act", with_dtype(gemm_attrs(false)),
                 gemm_bias_act_bwd_signature});
}

}  // namespace plumbline
