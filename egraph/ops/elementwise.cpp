// Elementwise family in the graph IR. act, add and mul apply to any shape (the registry sees [numel]).
#include "egraph/ops/common.hpp"

namespace plumbline::graph {

static Binding bind_flat(const std::vector<Shape>& in, const Attrs&) { return {{"n", in[0].numel()}}; }

static Binding bind_matrix(const std::vector<Shape>& in, const Attrs&) {
  need_rank("bias_add", in, 0, {2});
  return {{"m", in[0][0]}, {"n", in[0][1]}};
}

static GraphOp flat(const std::string& name, int args) {
  GraphOp op = registry_graph_op(name, name, name == "act_bwd" ? "d_x" : "y", args, args, {"n"}, bind_flat);
  op.flat = true;
  return op;
}

void add_elementwise_graph_ops(std::vector<GraphOp>& ops) {
  GraphOp act = flat("act", 1);
  act.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) { return std::vector<int>{add_like(g, "act_bwd", {x[0], dy}, a)}; };
  ops.push_back(act);
  ops.push_back(flat("act_bwd", 2));

  GraphOp add = flat("add", 2);
  add.vjp = [](Graph&, const std::vector<int>&, int, int dy, const Attrs&) { return std::vector<int>{dy, dy}; };
  ops.push_back(add);
  GraphOp mul = flat("mul", 2);
  mul.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs&) {
    return std::vector<int>{g.add("mul", {dy, x[1]}), g.add("mul", {dy, x[0]})};
  };
  ops.push_back(mul);

  GraphOp bias = registry_graph_op("bias_add", "bias_add", "y", 2, 2, {"m", "n"}, bind_matrix);
  bias.vjp = [](Graph& g, const std::vector<int>&, int, int dy, const Attrs&) { return std::vector<int>{dy, g.add("bias_add_bwd.d_bias", {dy})}; };
  ops.push_back(bias);
  ops.push_back(registry_graph_op("bias_add_bwd.d_bias", "bias_add_bwd", "d_bias", 1, 1, {"m", "n"}, bind_matrix));
}

}  // namespace plumbline::graph
