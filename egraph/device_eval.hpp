#pragma once
// Graphs on an OpenCL device: every registry node runs its kernels (check/kernel_check: poisoned,
// guarded buffers), graph-only nodes (reshape, permute, broadcasts) run on the host, and each kernel
// node's outputs are compared with the reference on the very inputs the kernel received, within the
// operator's own error bound (check/compare). So a whole graph on the device is checked node by
// node with the same evidence as one kernel, without any end-to-end tolerance to choose.
#include <string>
#include <vector>

#include "check/kernel_check.hpp"
#include "egraph/rule_check.hpp"

namespace plumbline::egraph {

struct DeviceRun {
  std::vector<TensorF> values;  // per node (dead nodes empty)
  std::string problem;          // the first node that failed, in words ("" when all passed)
  int kernel_nodes = 0;
  double worst_ratio = 0;  // over every kernel node's outputs
  double seconds = 0;      // kernel time
};

// integer_inputs: the graph's inputs are small integers (exact mode for linear nodes whose inputs
// are still small integers).
DeviceRun run_on_device(KernelChecker& kc, const graph::Graph& g, const graph::Bindings<float>& inputs, bool integer_inputs);

class DeviceSideEvaluator : public SideEvaluator {
 public:
  DeviceSideEvaluator(KernelChecker& kc, std::string name) : kc_(kc), name_(std::move(name)) {}
  std::string name() const override { return name_; }
  std::string check(const graph::Graph& lhs, const graph::Graph& rhs, const graph::Bindings<float>& inputs, bool bitwise) override;

 private:
  KernelChecker& kc_;
  std::string name_;
};

}  // namespace plumbline::egraph
