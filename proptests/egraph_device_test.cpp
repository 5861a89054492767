// Graphs on OpenCL devices (every device found; PLUMBLINE_DEVICE narrows it): the training graphs,
// original and optimized, run node by node, each kernel within its error bound; the shipped rules
// hold on the kernels too; a planted wrong kernel inside a graph is caught at its node.
#include <gtest/gtest.h>

#include <memory>

#include "egraph/device_eval.hpp"
#include "egraph/models.hpp"
#include "egraph/optimize.hpp"
#include "opencl/device.hpp"

using namespace plumbline;
using namespace plumbline::egraph;

namespace {

struct Device {
  std::unique_ptr<ocl::Runtime> runtime;
  std::unique_ptr<KernelChecker> checker;
};

std::vector<Device>& devices() {
  static std::vector<Device> d = [] {
    std::vector<Device> v;
    for (const auto& info : ocl::select_devices(ocl::default_selector())) {
      Device dev{std::make_unique<ocl::Runtime>(info, ocl::Builds::ForChecks), nullptr};
      dev.checker = std::make_unique<KernelChecker>(*dev.runtime);
      v.push_back(std::move(dev));
    }
    return v;
  }();
  return d;
}

}  // namespace

TEST(DeviceGraphs, TrainingGraphsRunCorrectlyBeforeAndAfterOptimization) {
  const auto rules = load_rules(default_rules_path());
  for (auto& dev : devices())
    for (const TrainingGraph& t : small_training_graphs()) {
      const Optimized o = optimize(t.graph, rules);
      for (Values values : {Values::Integers, Values::Normal, Values::Edge}) {
        const auto in = training_inputs(t, values, 5);
        const DeviceRun before = run_on_device(*dev.checker, t.graph, in, values == Values::Integers);
        EXPECT_TRUE(before.problem.empty()) << t.name << " on " << dev.runtime->device().selector << ": " << before.problem;
        graph::Bindings<float> opt_in;
        for (const auto& [n, id] : o.graph.inputs()) opt_in[n] = in.at(n);
        const DeviceRun after = run_on_device(*dev.checker, o.graph, opt_in, values == Values::Integers);
        EXPECT_TRUE(after.problem.empty()) << t.name << " (optimized) on " << dev.runtime->device().selector << ": " << after.problem;
        EXPECT_GT(after.kernel_nodes, 5);
      }
    }
}

TEST(DeviceGraphs, ShippedRulesHoldOnTheKernels) {
  for (auto& dev : devices()) {
    DeviceSideEvaluator eval(*dev.checker, dev.runtime->device().selector);
    RuleCheckOptions o;
    o.instances = 12;
    o.device = &eval;
    o.device_instances = 12;
    for (const Rule& rule : load_rules(default_rules_path())) {
      const RuleVerdict v = check_rule(rule, o);
      EXPECT_TRUE(v.passed) << v.counterexample << "\nrepro: " << v.repro;
      EXPECT_GT(v.device_evaluations, 0) << rule.name;
    }
  }
}

TEST(DeviceGraphs, AWrongKernelInsideAGraphIsCaughtAtItsNode) {
  // The seeds' max-pool gradient spread like an average pool, as a user kernel, inside a graph.
  const std::string file = std::string(PLUMBLINE_PLANTED_DIR) + "/max_pool2d_bwd_avg_spread.cl";
  for (auto& dev : devices()) {
    KernelChecker planted(*dev.runtime, plans::KernelSource{.kernel_file = file, .entries = {"spread"}});
    graph::Graph g;
    const int x = g.input("x", Shape{1, 2, 4, 4});
    const int dy = g.input("dy", Shape{1, 2, 2, 2});
    g.set_output("d_x", g.add("max_pool2d_bwd", {x, dy}, {{"kh", int64_t{2}}, {"kw", int64_t{2}}}));
    Rng rng(1);
    graph::Bindings<float> in{{"x", make_input({"x", Shape{1, 2, 4, 4}}, Values::Normal, rng)},
                              {"dy", make_input({"dy", Shape{1, 2, 2, 2}}, Values::Normal, rng)}};
    const DeviceRun r = run_on_device(planted, g, in, false);
    EXPECT_NE(r.problem.find("node %2 max_pool2d_bwd"), std::string::npos) << r.problem;
  }
}
