// Elementwise family: activations and their backward, add, mul, bias_add and its backward.
#include "core/ops/families.hpp"

namespace plumbline {

namespace {

std::vector<AttrSpec> act_attrs() {
  return {int_attr("n", 1, 1, "elements"), enum_attr("act", "relu", activation_kinds(), "activation kind"), dtype_attr()};
}

Signature act_signature(const Problem& p) {
  const Shape sh{p.i("n")};
  Signature s;
  s.inputs = {{"x", sh}};
  s.outputs = {{"y", sh}};
  s.flops = activation_flops(p.s("act")) * sh.numel();
  return s;
}

Signature act_bwd_signature(const Problem& p) {
  const Shape sh{p.i("n")};
  Signature s;
  s.inputs = {{"x", sh}, {"d_y", sh}};
  s.outputs = {{"d_x", sh}};
  s.flops = (2 * activation_flops(p.s("act")) + 1) * sh.numel();
  return s;
}

Signature binary_signature(const Problem& p) {
  const Shape sh{p.i("n")};
  Signature s;
  s.inputs = {{"a", sh}, {"b", sh}};
  s.outputs = {{"y", sh}};
  s.flops = static_cast<double>(sh.numel());
  s.exact_ties = true;
  return s;
}

std::vector<AttrSpec> bias_attrs() { return {int_attr("m", 1, 1, "rows"), int_attr("n", 1, 1, "columns (bias length)")}; }

Signature bias_add_signature(const Problem& p) {
  const int64_t m = p.i("m"), n = p.i("n");
  Signature s;
  s.inputs = {{"x", Shape{m, n}}, {"bias", Shape{n}}};
  s.outputs = {{"y", Shape{m, n}}};
  s.flops = static_cast<double>(m) * static_cast<double>(n);
  s.exact_ties = true;
  return s;
}

Signature bias_add_bwd_signature(const Problem& p) {
  const int64_t m = p.i("m"), n = p.i("n");
  Signature s;
  s.inputs = {{"d_y", Shape{m, n}}};
  s.outputs = {{"d_x", Shape{m, n}}, {"d_bias", Shape{n}}};
  s.flops = static_cast<double>(m) * static_cast<double>(n);
  return s;
}

}  // namespace

void add_elementwise_ops(std::vector<OpSpec>& ops) {
  ops.push_back({"act", "elementwise", "y = act(x), act in {none, relu, gelu_tanh, gelu_erf, silu, sigmoid, tanh}", "", act_attrs(), act_signature});
  ops.push_back({"act_bwd", "elementwise", "d_x = d_y * act'(x); relu'(0) = 0", "act", act_attrs(), act_bwd_signature});
  ops.push_back({"add", "elementwise", "y = a + b", "", {int_attr("n", 1, 1, "elements"), dtype_attr()}, binary_signature});
  ops.push_back({"mul", "elementwise", "y = a * b", "", {int_attr("n", 1, 1, "elements"), dtype_attr()}, binary_signature});
  ops.push_back({"bias_add", "elementwise", "y[m,n] = x[m,n] + bias[n]", "", with_dtype(bias_attrs()), bias_add_signature});
  ops.push_back(
      {"bias_add_bwd", "elementwise", "d_x = d_y; d_bias = column sums of d_y", "bias_add", with_dtype(bias_attrs()), bias_add_bwd_signature});
}

}  // namespace plumbline
