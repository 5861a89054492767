#include "egraph/graph_check.hpp"

#include "egraph/equivalence.hpp"

namespace plumbline::egraph {

GraphCheck check_training_graph(const TrainingGraph& t, const std::vector<Rule>& rules) {
  GraphCheck c;
  c.name = t.name;
  auto fail = [&](const std::string& why) {
    if (c.passed) c.message = why;
    c.passed = false;
  };
  graph::Bindings<double> at;
  for (const auto& [name, v] : training_inputs(t, Values::Normal, 11)) at[name] = v.convert<double>();
  c.gradients = graph::check_gradients(t.graph, "loss", t.params, at);
  if (!c.gradients.passed) fail("gradients against finite differences: " + c.gradients.where);

  c.optimized = optimize(t.graph, rules);
  const Optimized& o = c.optimized;
  c.saturated = o.run.stop_reason == "saturated";
  c.cheaper = o.cost_after < o.cost_before;
  c.outputs_kept = o.graph.outputs().size() == t.graph.outputs().size();
  if (!c.saturated) fail("saturation stopped at the " + o.run.stop_reason);
  if (!c.cheaper) fail("the extracted graph is not cheaper");
  if (!c.outputs_kept) fail("the extracted graph lost outputs");
  for (Values values : {Values::Uniform, Values::Normal})
    for (uint64_t seed = 1; seed <= 3 && c.outputs_kept; ++seed) {
      const auto in32 = training_inputs(t, values, seed);
      graph::Bindings<double> in64;
      graph::Bindings<float> opt32;
      graph::Bindings<double> opt64;
      for (const auto& [n, v] : in32) in64[n] = v.convert<double>();
      for (const auto& [n, id] : o.graph.inputs()) opt32[n] = in32.at(n), opt64[n] = in64.at(n);
      const auto a64 = graph::run_graph<double>(t.graph, in64), b64 = graph::run_graph<double>(o.graph, opt64);
      const auto a32 = graph::run_graph<float>(t.graph, in32), b32 = graph::run_graph<float>(o.graph, opt32);
      for (const auto& [name, id] : t.graph.outputs()) {
        if (!b64.contains(name)) {
          fail("the extracted graph lost output " + name);
          continue;
        }
        const SideComparison s = compare_sides(name, a64.at(name), b64.at(name), a32.at(name), b32.at(name), Numerics::Reassoc, 0, false);
        c.worst_ratio = std::max(c.worst_ratio, s.worst_ratio);
        if (!s.passed) {
          c.equivalent = false;
          fail("optimized vs original (" + std::string(to_string(values)) + ", seed " + std::to_string(seed) + "): " + s.message);
        }
      }
    }
  return c;
}

}  // namespace plumbline::egraph
