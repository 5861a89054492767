// Normalization family: group_norm (NCHW), layer_norm and rms_norm (last dimension), forward and backward.
#include "core/ops/families.hpp"

namespace plumbline {

namespace {

Signature group_norm_signature(const Problem& p) {
  const int64_t n = p.i("n"), c = p.i("c"), h = p.i("h"), w = p.i("w"), g = p.i("g");
  require(c % g == 0, p, "channels c=" + std::to_string(c) + " not divisible by groups g=" + std::to_string(g));
  require(p.f("eps") >= 0, p, "eps must be >= 0");
  Signature s;
  s.inputs = {{"x", Shape{n, c, h, w}}, {"gamma", Shape{c}}, {"beta", Shape{c}}};
  s.outputs = {{"y", Shape{n, c, h, w}}};
  s.flops = 8.0 * n * c * h * w;
  return s;
}

Signature rows_norm_signature(const Problem& p, bool with_beta) {
  const int64_t m = p.i("m"), n = p.i("n");
  require(p.f("eps") >= 0, p, "eps must be >= 0");
  Signature s;
  s.inputs = {{"x", Shape{m, n}}, {"gamma", Shape{n}}};
  if (with_beta) s.inputs.push_back({"beta", Shape{n}});
  s.outputs = {{"y", Shape{m, n}}};
  s.flops = (with_beta ? 8.0 : 6.0) * m * n;
  return s;
}

// Backward of a norm: inputs x, gamma, d_y; outputs d_x and the gradient of every parameter.
Signature norm_bwd(const Signature& f) {
  Signature s;
  s.inputs = {f.inputs[0], f.inputs[1], {"d_y", f.outputs[0].shape}};
  for (const auto& t : f.inputs) s.outputs.push_back({grad_name(t.name), t.shape});
  s.flops = 2.0 * f.flops;
  return s;
}

Signature layer_norm_signature(const Problem& p) { return rows_norm_signature(p, true); }
Signature rms_norm_signature(const Problem& p) { return rows_norm_signature(p, false); }

std::vector<AttrSpec> group_norm_attrs() {
  return {int_attr("n", 1, 1, "batch"),
          int_attr("c", 1, 1, "channels"),
          int_attr("h", 1, 1, "height"),
          int_attr("w", 1, 1, "width"),
          int_attr("g", 1, 1, "groups; c % g must be 0"),
          float_attr("eps", 1e-5, "added to the biased variance under the square root"),
          dtype_attr()};
}

std::vector<AttrSpec> rows_attrs() {
  return {int_attr("m", 1, 1, "rows (normalized independently)"), int_attr("n", 1, 1, "row length (normalized dim)"),
          float_attr("eps", 1e-5, "added under the square root"), dtype_attr()};
}

}  // namespace

void add_norm_ops(std::vector<OpSpec>& ops) {
  ops.push_back(
      {"group_norm", "norms", "y = (x - mean) / sqrt(var + eps) * gamma[c] + beta[c] over (n, group)", "", group_norm_attrs(), group_norm_signature});
  ops.push_back({"group_norm_bwd", "norms", "d_x, d_gamma, d_beta of group_norm", "group_norm", group_norm_attrs(),
                 [](const Problem& p) { return norm_bwd(group_norm_signature(p)); }});
  ops.push_back({"layer_norm", "norms", "y = (x - mean) / sqrt(var + eps) * gamma + beta over each row", "", rows_attrs(), layer_norm_signature});
  ops.push_back({"layer_norm_bwd", "norms", "d_x, d_gamma, d_beta of layer_norm", "layer_norm", rows_attrs(),
                 [](const Problem& p) { return norm_bwd(layer_norm_signature(p)); }});
  ops.push_back({"rms_norm", "norms", "y = x / sqrt(mean(x^2) + eps) * gamma over each row", "", rows_attrs(), rms_norm_signature});
  ops.push_back({"rms_norm_bwd", "norms", "d_x, d_gamma of rms_norm", "rms_norm", rows_attrs(),
                 [](const Problem& p) { return norm_bwd(rms_norm_signature(p)); }});
}

}  // namespace plumbline
