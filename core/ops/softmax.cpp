// Softmax and loss family: softmax, log_softmax (last dim), cross_entropy (mean over the batch).
#include "core/ops/families.hpp"

namespace plumbline {

namespace {

std::vector<AttrSpec> rows_attrs() { return {int_attr("m", 1, 1, "rows"), int_attr("n", 1, 1, "row length (softmax dim)"), dtype_attr()}; }

Signature softmax_signature(const Problem& p) {
  const int64_t m = p.i("m"), n = p.i("n");
  Signature s;
  s.inputs = {{"x", Shape{m, n}, Domain::Logits}};
  s.outputs = {{"y", Shape{m, n}}};
  s.flops = 5.0 * m * n;
  return s;
}

// Both backwards take the forward's output y (as frameworks do) and d_y: y is a row of probabilities
// (softmax) or of their logarithms (log_softmax), and is drawn as one.
Signature softmax_bwd_signature(const Problem& p) {
  const Shape sh{p.i("m"), p.i("n")};
  Signature s;
  s.inputs = {{"y", sh, p.op() == "softmax_bwd" ? Domain::Distribution : Domain::LogDistribution}, {"d_y", sh}};
  s.outputs = {{"d_x", sh}};
  s.flops = 4.0 * sh.numel();
  return s;
}

std::vector<AttrSpec> ce_attrs() {
  return {int_attr("b", 1, 1, "batch (rows of logits)"), int_attr("c", 1, 1, "classes"),
          enum_attr("labels", "index", {"index", "soft"},
                    "index: target[b] holds class indices (float32 in every dtype); soft: target[b,c] holds probabilities"),
          dtype_attr()};
}

Signature ce_signature(const Problem& p) {
  const int64_t b = p.i("b"), c = p.i("c");
  Signature s;
  s.inputs = {{"logits", Shape{b, c}, Domain::Logits}};
  if (p.s("labels") == "index")
    s.inputs.push_back({"target", Shape{b}, Domain::ClassIndex, c});
  else
    s.inputs.push_back({"target", Shape{b, c}, Domain::Distribution});
  s.outputs = {{"loss", Shape{}}};
  s.flops = 6.0 * b * c;
  return s;
}

Signature ce_bwd_signature(const Problem& p) {
  Signature f = ce_signature(p);
  Signature s;
  s.inputs = {f.inputs[0], f.inputs[1], {"d_loss", Shape{}}};
  s.outputs = {{"d_logits", f.inputs[0].shape}};
  s.flops = 6.0 * f.inputs[0].shape.numel();
  return s;
}

}  // namespace

void add_softmax_ops(std::vector<OpSpec>& ops) {
  ops.push_back({"softmax", "softmax", "y = exp(x - max) / sum(exp(x - max)) over each row", "", rows_attrs(), softmax_signature});
  ops.push_back({"softmax_bwd", "softmax", "d_x = y * (d_y - sum(d_y * y)) over each row", "softmax", rows_attrs(), softmax_bwd_signature});
  ops.push_back({"log_softmax", "softmax", "y = x - logsumexp(x) over each row", "", rows_attrs(), softmax_signature});
  ops.push_back({"log_softmax_bwd", "softmax", "d_x = d_y - exp(y) * sum(d_y) over each row", "log_softmax", rows_attrs(), softmax_bwd_signature});
  ops.push_back({"cross_entropy", "softmax", "loss = mean over rows of -sum(target * log_softmax(logits))", "", ce_attrs(), ce_signature});
  ops.push_back(
      {"cross_entropy_bwd", "softmax", "d_logits of cross_entropy (target is not differentiated)", "cross_entropy", ce_attrs(), ce_bwd_signature});
}

}  // namespace plumbline
