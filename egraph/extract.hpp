#pragma once
// Extraction: one e-node per needed e-class, chosen to minimize a cost model of the whole DAG.
// Each e-node costs its time on a nominal device (roofline: FLOPs at the compute rate plus bytes at
// the memory rate plus a launch), from the registry's FLOP and byte counts. A tree-cost fixpoint
// gives a first choice (all costs positive, so it never picks a cycle); a DAG pass then revisits
// each class, counting a shared subgraph once, and keeps a change only when the whole graph's cost
// falls and stays acyclic.
#include <map>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"

namespace plumbline::egraph {

struct CostModel {
  double flops_per_us = 50e6;                           // ~50 TFLOP/s FP32 (an H100's order of magnitude)
  double bytes_per_us = 3e6;                            // ~3 TB/s
  double launch_us = 2;                                 // per kernel
  double node_us = 1e-6;                                // every e-node costs something: no zero-cost cycles
  double cost(const EGraph& eg, const ENode& n) const;  // microseconds
};

struct Extraction {
  std::map<Id, ENode> choice;  // canonical class -> chosen e-node
  double cost = 0;             // of the DAG reachable from the roots, each class once
};

Extraction extract(const EGraph& eg, const std::vector<Id>& roots, const CostModel& model = {});

// The DAG cost of the graph's live nodes (each node once), by the same model.
double graph_cost(const graph::Graph& g, const CostModel& model = {});

// The extracted graph, with the given outputs named as in `outputs` (name, class).
graph::Graph to_graph(const EGraph& eg, const Extraction& x, const std::vector<std::pair<std::string, Id>>& outputs);

}  // namespace plumbline::egraph
