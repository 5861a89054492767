#pragma once
// The whole-graph checks of one training graph, on the reference: its gradients (autodiff) against
// finite differences; the optimizer's result (saturated, every output kept, cheaper); and the
// optimized graph against the original on random inputs (equivalence.hpp, reassoc). Used by the
// tests and by `plumbline rules graphs`; device runs are in device_eval.hpp.
#include <string>
#include <vector>

#include "egraph/models.hpp"
#include "egraph/optimize.hpp"

namespace plumbline::egraph {

struct GraphCheck {
  std::string name;
  bool passed = true;
  graph::GradientCheck gradients;
  Optimized optimized;
  bool outputs_kept = true, cheaper = true, saturated = true;
  bool equivalent = true;
  double worst_ratio = 0;  // of the optimized graph's outputs against the original's
  std::string message;     // the first problem, in words ("" when passed)
};

GraphCheck check_training_graph(const TrainingGraph& t, const std::vector<Rule>& rules);

}  // namespace plumbline::egraph
