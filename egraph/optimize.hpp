#pragma once
// The optimizer end to end: a graph into an e-graph, saturated with the rules, the cheapest
// equivalent graph extracted (every output kept, under the same names).
#include <vector>

#include "egraph/extract.hpp"
#include "egraph/runner.hpp"

namespace plumbline::egraph {

struct Optimized {
  graph::Graph graph;
  RunnerReport run;
  double cost_before = 0, cost_after = 0;    // microseconds, by the cost model
  size_t nodes_before = 0, nodes_after = 0;  // live graph nodes
};

Optimized optimize(const graph::Graph& g, const std::vector<Rule>& rules, const RunnerOptions& options = {}, const CostModel& model = {});

}  // namespace plumbline::egraph
