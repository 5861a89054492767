// Launch plans of the convolution family (opencl/kernels/conv.cl). Entries with and without a bias
// are separate (the bias adds a tensor), chosen by the problem's bias attribute.
#include "core/registry.hpp"
#include "opencl/launch.hpp"

namespace plumbline::ocl {

void add_conv_plans(std::map<std::string, LaunchPlan>& plans) {
  const auto with_bias = [](const Problem& p) { return p.i("bias") == 1; };
  const auto without_bias = [](const Problem& p) { return p.i("bias") == 0; };
  const auto per_output = [](const Problem& p) { return linear(signature_of(p).outputs[0].shape.numel()); };
  plans["conv2d"] = {"conv.cl", {{"conv2d_forward", per_output, without_bias}, {"conv2d_forward_bias", per_output, with_bias}}};
  plans["conv2d_bwd_data"] = {"conv.cl",
                              {{"conv2d_backward_data", [](const Problem& p) {
                                  return tiles2d(p.i("w"), p.i("h"), 16, p.i("n") * p.i("c"));
                                }}}};
  const auto wgrad = [](const Problem& p) {
    return tiles2d(p.i("c") / p.i("g") * p.i("r") * p.i("s"), p.i("k") / p.i("g"), 16, p.i("g"));
  };
  plans["conv2d_bwd_weight"] = {"conv.cl",
                                {{"conv2d_backward_weight", wgrad, without_bias},
                                 {"conv2d_backward_weight_bias", wgrad, with_bias},
                                 {"conv2d_backward_bias", [](const Problem& p) { return linear(p.i("k"), 64); }, with_bias}}};
}

}  // namespace plumbline::ocl
