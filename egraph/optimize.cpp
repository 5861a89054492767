#include "egraph/optimize.hpp"

#include <algorithm>

namespace plumbline::egraph {

static size_t live_nodes(const graph::Graph& g) {
  const auto live = g.live();
  return static_cast<size_t>(std::count(live.begin(), live.end(), true));
}

Optimized optimize(const graph::Graph& g, const std::vector<Rule>& rules, const RunnerOptions& options, const CostModel& model) {
  EGraph eg;
  const std::vector<Id> ids = eg.add_graph(g);
  Optimized o;
  o.run = run_rules(eg, rules, options);
  std::vector<std::pair<std::string, Id>> outputs;
  std::vector<Id> roots;
  for (const auto& [name, node] : g.outputs()) {
    outputs.emplace_back(name, ids[static_cast<size_t>(node)]);
    roots.push_back(ids[static_cast<size_t>(node)]);
  }
  const Extraction x = extract(eg, roots, model);
  o.graph = to_graph(eg, x, outputs);
  o.cost_before = graph_cost(g, model);
  o.cost_after = graph_cost(o.graph, model);
  o.nodes_before = live_nodes(g);
  o.nodes_after = live_nodes(o.graph);
  return o;
}

}  // namespace plumbline::egraph
