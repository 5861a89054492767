// Pooling family in the graph IR. Backwards that take only d_y carry the input's H, W as attributes.
#include "egraph/ops/common.hpp"

namespace plumbline::graph {

static Binding bind_x(const std::vector<Shape>& in, const Attrs&) {
  need_rank("pool", in, 0, {4});
  return {{"n", in[0][0]}, {"c", in[0][1]}, {"h", in[0][2]}, {"w", in[0][3]}};
}

static Binding bind_dy(const std::vector<Shape>& in, const Attrs&) {
  need_rank("pool_bwd", in, 0, {2, 4});
  return {{"n", in[0][0]}, {"c", in[0][1]}};
}

void add_pooling_graph_ops(std::vector<GraphOp>& ops) {
  const std::vector<std::string> nchw{"n", "c", "h", "w"};
  GraphOp maxp = registry_graph_op("max_pool2d", "max_pool2d", "y", 1, 1, nchw, bind_x);
  maxp.vjp = [](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) {
    return std::vector<int>{add_like(g, "max_pool2d_bwd", {x[0], dy}, a)};
  };
  ops.push_back(maxp);
  ops.push_back(registry_graph_op("max_pool2d_bwd", "max_pool2d_bwd", "d_x", 2, 2, nchw, bind_x));

  // avg_pool2d_bwd and global_avg_pool_bwd take d_y alone: the input's size travels as attributes.
  for (const std::string name : {"avg_pool2d", "global_avg_pool"}) {
    GraphOp fwd = registry_graph_op(name, name, "y", 1, 1, nchw, bind_x);
    fwd.vjp = [name](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) {
      const Shape& xs = g.node(x[0]).shape;
      return std::vector<int>{add_like(g, name + "_bwd", {dy}, a, {{"h", xs[2]}, {"w", xs[3]}})};
    };
    ops.push_back(fwd);
    ops.push_back(registry_graph_op(name + "_bwd", name + "_bwd", "d_x", 1, 1, {"n", "c"}, bind_dy));
  }
}

}  // namespace plumbline::graph
