// Launch plans of the pooling family (opencl/kernels/pooling.cl): one work-item per output element
// (forward) or per input element (backward, gathering); global_avg_pool one work-group per plane.
#include "core/registry.hpp"
#include "opencl/launch.hpp"

namespace plumbline::ocl {

void add_pooling_plans(std::map<std::string, LaunchPlan>& plans) {
  const auto per_output = [](const Problem& p) { return linear(signature_of(p.as(p.op().substr(0, p.op().find("_bwd")))).outputs[0].shape.numel()); };
  const auto per_input = [](const Problem& p) { return linear(p.i("n") * p.i("c") * p.i("h") * p.i("w")); };
  plans["max_pool2d"] = {"pooling.cl", {{"max_pool_forward", per_output}}};
  plans["max_pool2d_bwd"] = {"pooling.cl", {{"max_pool_backward", per_input}}};
  plans["avg_pool2d"] = {"pooling.cl", {{"avg_pool_forward", per_output}}};
  plans["avg_pool2d_bwd"] = {"pooling.cl", {{"avg_pool_backward", per_input}}};
  plans["global_avg_pool"] = {"pooling.cl", {{"global_avg_pool_forward", [](const Problem& p) { return groups(p.i("n") * p.i("c"), 64); }}}};
  plans["global_avg_pool_bwd"] = {"pooling.cl", {{"global_avg_pool_backward", per_input}}};
}

}  // namespace plumbline::ocl
