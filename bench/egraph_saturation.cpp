// How long equality saturation takes on a training graph of about 1,000 nodes: a stack of
// transformer MLP blocks with their backward (egraph/models.hpp), saturated with the shipped rules.
// Reported in docs/performance.md.
#include <benchmark/benchmark.h>

#include "egraph/models.hpp"
#include "egraph/optimize.hpp"

using namespace plumbline;
using namespace plumbline::egraph;

namespace {

const std::vector<Rule>& rules() {
  static const std::vector<Rule> r = load_rules(default_rules_path());
  return r;
}

// Layers chosen so that the graph has about `nodes` nodes.
TrainingGraph graph_of(int64_t nodes) {
  const int per_layer = transformer_stack(2, 64, 64, 256).graph.size() - transformer_stack(1, 64, 64, 256).graph.size();
  const int layers = std::max<int>(1, static_cast<int>(nodes / per_layer));
  return transformer_stack(layers, 64, 64, 256);
}

void BM_Saturate(benchmark::State& state) {
  const TrainingGraph t = graph_of(state.range(0));
  RunnerReport last;
  for (auto _ : state) {
    EGraph eg;
    eg.add_graph(t.graph);
    last = run_rules(eg, rules());
    benchmark::DoNotOptimize(last.nodes);
  }
  state.counters["graph_nodes"] = t.graph.size();
  state.counters["enodes"] = static_cast<double>(last.nodes);
  state.counters["eclasses"] = static_cast<double>(last.classes);
  state.counters["iterations"] = last.iterations;
  state.counters["saturated"] = last.stop_reason == "saturated";
}

void BM_SaturateAndExtract(benchmark::State& state) {
  const TrainingGraph t = graph_of(state.range(0));
  Optimized last;
  for (auto _ : state) {
    last = optimize(t.graph, rules());
    benchmark::ClobberMemory();
  }
  state.counters["graph_nodes"] = t.graph.size();
  state.counters["cost_ratio"] = last.cost_after / last.cost_before;
}

}  // namespace

BENCHMARK(BM_Saturate)->Arg(250)->Arg(1000)->Arg(4000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SaturateAndExtract)->Arg(1000)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
