// Softmax family in the graph IR: softmax, log_softmax (rows) and cross_entropy.
#include "egraph/ops/common.hpp"

namespace plumbline::graph {

static Binding bind_rows(const std::vector<Shape>& in, const Attrs&) {
  need_rank("softmax", in, 0, {2});
  return {{"m", in[0][0]}, {"n", in[0][1]}};
}

static Binding bind_logits(const std::vector<Shape>& in, const Attrs&) {
  need_rank("cross_entropy", in, 0, {2});
  return {{"b", in[0][0]}, {"c", in[0][1]}};
}

void add_softmax_graph_ops(std::vector<GraphOp>& ops) {
  for (const std::string name : {"softmax", "log_softmax"}) {
    GraphOp fwd = registry_graph_op(name, name, "y", 1, 1, {"m", "n"}, bind_rows);
    // Both backwards are written in terms of the forward's output y.
    fwd.vjp = [name](Graph& g, const std::vector<int>&, int self, int dy, const Attrs&) {
      return std::vector<int>{g.add(name + "_bwd", {self, dy})};
    };
    ops.push_back(fwd);
    ops.push_back(registry_graph_op(name + "_bwd", name + "_bwd", "d_x", 2, 2, {"m", "n"}, bind_rows));
  }
  GraphOp ce = registry_graph_op("cross_entropy", "cross_entropy", "loss", 2, 2, {"b", "c"}, bind_logits);
  ce.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) {
    return std::vector<int>{add_like(g, "cross_entropy_bwd", {x[0], x[1], dy}, a), -1};  // targets are data
  };
  ops.push_back(ce);
  ops.push_back(registry_graph_op("cross_entropy_bwd", "cross_entropy_bwd", "d_logits", 3, 3, {"b", "c"}, bind_logits));
}

}  // namespace plumbline::graph
