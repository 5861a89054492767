// Launch plans of the normalization family (opencl/kernels/norms.cl).
#include "opencl/launch.hpp"

namespace plumbline::ocl {

namespace {

int64_t segments(const Problem& p) { return p.has("g") ? p.i("n") * p.i("g") : p.i("m"); }

// Backward: statistics per segment, d_x per segment, parameter gradients per parameter.
LaunchPlan backward(const std::string& name, const char* params) {
  const auto per_segment = [](const Problem& p) { return groups(segments(p), 256); };
  return {"norms.cl",
          {{name + "_stats", per_segment},
           {name + "_backward_data", per_segment},
           {name + "_backward_params", [params](const Problem& p) { return linear(p.i(params), 64); }}},
          [](const Problem& p) { return std::vector<int64_t>{2 * segments(p)}; }};
}

}  // namespace

void add_norm_plans(std::map<std::string, LaunchPlan>& plans) {
  const auto per_segment = [](const Problem& p) { return groups(segments(p), 256); };
  plans["group_norm"] = {"norms.cl", {{"group_norm_forward", per_segment}}};
  plans["layer_norm"] = {"norms.cl", {{"layer_norm_forward", per_segment}}};
  plans["rms_norm"] = {"norms.cl", {{"rms_norm_forward", per_segment}}};
  plans["group_norm_bwd"] = backward("group_norm", "c");
  plans["layer_norm_bwd"] = backward("layer_norm", "n");
  plans["rms_norm_bwd"] = backward("rms_norm", "n");
}

}  // namespace plumbline::ocl
