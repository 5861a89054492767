#pragma once
// Shorthands for the family files of egraph/ops/.
#include "egraph/graph.hpp"

namespace plumbline::graph {

using Binding = std::vector<std::pair<std::string, AttrValue>>;

inline int64_t dim(const Shape& s, int i) { return s[i < 0 ? s.rank() + i : i]; }

// The node's attributes, minus those the target operator does not take, plus `extra`.
inline Attrs carry(const Attrs& a, const GraphOp& target, const Attrs& extra = {}) {
  Attrs out;
  for (const auto& [n, v] : a)
    for (const auto& s : target.attrs)
      if (s.name == n) out.emplace_back(n, v);
  for (const auto& kv : extra) out.push_back(kv);
  return out;
}

// Adds `op` with the node's own attributes carried over.
inline int add_like(Graph& g, const std::string& op, std::vector<int> args, const Attrs& a, const Attrs& extra = {}) {
  return g.add(op, std::move(args), carry(a, find_graph_op(op), extra));
}

}  // namespace plumbline::graph
