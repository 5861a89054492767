// Reductions and transpose in the graph IR (2-D, as in the registry).
#include "egraph/ops/common.hpp"

namespace plumbline::graph {

static Binding bind_matrix(const std::vector<Shape>& in, const Attrs&) {
  need_rank("reduction", in, 0, {2});
  return {{"m", in[0][0]}, {"n", in[0][1]}};
}

void add_reduction_graph_ops(std::vector<GraphOp>& ops) {
  for (const std::string name : {"sum", "mean"}) {
    GraphOp op = registry_graph_op(name, name, "y", 1, 1, {"m", "n"}, bind_matrix);
    op.vjp = [name](Graph& g, const std::vector<int>& x, int, int dy, const Attrs& a) {
      const Shape& xs = g.node(x[0]).shape;
      const bool all = attr_s(a, "over") == "all";
      const double per = name == "sum" ? 1.0 : 1.0 / static_cast<double>(all ? xs.numel() : xs[1]);
      if (all) return std::vector<int>{g.add("expand", {dy}, {{"shape", shape_text(xs)}, {"scale", per}})};
      return std::vector<int>{g.add("row_broadcast", {dy}, {{"n", xs[1]}, {"scale", per}})};
    };
    ops.push_back(op);
  }
  GraphOp t = registry_graph_op("transpose", "transpose", "y", 1, 1, {"m", "n"}, bind_matrix);
  t.vjp = [](Graph& g, const std::vector<int>&, int, int dy, const Attrs&) { return std::vector<int>{g.add("transpose", {dy})}; };
  ops.push_back(t);
}

}  // namespace plumbline::graph
