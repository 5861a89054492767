// Normalization family in the graph IR: group_norm (NCHW), layer_norm and rms_norm (rows).
#include "egraph/ops/common.hpp"

namespace plumbline::graph {

static Binding bind_nchw(const std::vector<Shape>& in, const Attrs&) {
  need_rank("group_norm", in, 0, {4});
  return {{"n", in[0][0]}, {"c", in[0][1]}, {"h", in[0][2]}, {"w", in[0][3]}};
}

static Binding bind_rows(const std::vector<Shape>& in, const Attrs&) {
  need_rank("norm", in, 0, {2});
  return {{"m", in[0][0]}, {"n", in[0][1]}};
}

// A norm and its backward outputs: the backward takes (x, gamma, d_y) and gives one gradient per input.
static void add_norm(std::vector<GraphOp>& ops, const std::string& name, int args, const std::vector<std::string>& shape,
                     decltype(GraphOp::bind) bind, const std::vector<std::string>& grads) {
  GraphOp fwd = registry_graph_op(name, name, "y", args, args, shape, bind);
  fwd.vjp = [name, grads](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) {
    std::vector<int> out;
    for (const auto& d : grads) out.push_back(add_like(g, name + "_bwd." + d, {x[0], x[1], dy}, a));
    return out;
  };
  ops.push_back(fwd);
  for (const auto& d : grads) ops.push_back(registry_graph_op(name + "_bwd." + d, name + "_bwd", d, 3, 3, shape, bind));
}

void add_norm_graph_ops(std::vector<GraphOp>& ops) {
  add_norm(ops, "group_norm", 3, {"n", "c", "h", "w"}, bind_nchw, {"d_x", "d_gamma", "d_beta"});
  add_norm(ops, "layer_norm", 3, {"m", "n"}, bind_rows, {"d_x", "d_gamma", "d_beta"});
  add_norm(ops, "rms_norm", 2, {"m", "n"}, bind_rows, {"d_x", "d_gamma"});
}

}  // namespace plumbline::graph
