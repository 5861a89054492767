// Convolution family in the graph IR. The backward operators take as attributes what their
// arguments' shapes cannot tell: the input's H, W (bwd_data) and the kernel's R, S (bwd_weight).
#include "egraph/ops/common.hpp"

namespace plumbline::graph {

static Binding bind_forward(const std::vector<Shape>& in, const Attrs&) {
  need_rank("conv2d", in, 0, {4});
  need_rank("conv2d", in, 1, {4});
  const Shape &x = in[0], &w = in[1];
  return {{"n", x[0]}, {"c", x[1]}, {"h", x[2]}, {"w", x[3]}, {"k", w[0]}, {"r", w[2]}, {"s", w[3]}, {"bias", int64_t{in.size() == 3}}};
}

static Binding bind_bwd_data(const std::vector<Shape>& in, const Attrs& a) {
  need_rank("conv2d_bwd_data", in, 0, {4});
  need_rank("conv2d_bwd_data", in, 1, {4});
  const Shape &w = in[0], &dy = in[1];
  return {{"n", dy[0]}, {"c", w[1] * attr_i(a, "g")}, {"k", w[0]}, {"r", w[2]}, {"s", w[3]}, {"bias", int64_t{0}}};
}

static decltype(GraphOp::bind) bind_bwd_weight(int64_t bias) {
  return [bias](const std::vector<Shape>& in, const Attrs&) -> Binding {
    need_rank("conv2d_bwd_weight", in, 0, {4});
    need_rank("conv2d_bwd_weight", in, 1, {4});
    const Shape &x = in[0], &dy = in[1];
    return {{"n", x[0]}, {"c", x[1]}, {"h", x[2]}, {"w", x[3]}, {"k", dy[1]}, {"bias", bias}};
  };
}

void add_conv_graph_ops(std::vector<GraphOp>& ops) {
  GraphOp fwd = registry_graph_op("conv2d", "conv2d", "y", 2, 3, {"n", "c", "h", "w", "k", "r", "s", "bias"}, bind_forward);
  fwd.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) -> std::vector<int> {
    const Shape& xs = g.node(x[0]).shape;
    const Shape& ws = g.node(x[1]).shape;
    std::vector<int> grads{add_like(g, "conv2d_bwd_data", {x[1], dy}, a, {{"h", xs[2]}, {"w", xs[3]}}),
                           add_like(g, "conv2d_bwd_weight.d_w", {x[0], dy}, a, {{"r", ws[2]}, {"s", ws[3]}})};
    if (x.size() == 3) grads.push_back(add_like(g, "conv2d_bwd_weight.d_bias", {x[0], dy}, a, {{"r", ws[2]}, {"s", ws[3]}}));
    return grads;
  };
  ops.push_back(fwd);
  ops.push_back(registry_graph_op("conv2d_bwd_data", "conv2d_bwd_data", "d_x", 2, 2, {"n", "c", "k", "r", "s", "bias"}, bind_bwd_data));
  const std::vector<std::string> wshape{"n", "c", "h", "w", "k", "bias"};
  ops.push_back(registry_graph_op("conv2d_bwd_weight.d_w", "conv2d_bwd_weight", "d_w", 2, 2, wshape, bind_bwd_weight(0)));
  ops.push_back(registry_graph_op("conv2d_bwd_weight.d_bias", "conv2d_bwd_weight", "d_bias", 2, 2, wshape, bind_bwd_weight(1)));
}

}  // namespace plumbline::graph
