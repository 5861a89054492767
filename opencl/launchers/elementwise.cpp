// Launch plans of the elementwise family (opencl/kernels/elementwise.cl).
#include "opencl/launch.hpp"

namespace plumbline::ocl {

void add_elementwise_plans(std::map<std::string, LaunchPlan>& plans) {
  const auto per_element = [](const Problem& p) { return linear(p.i("n")); };
  const auto per_matrix_element = [](const Problem& p) { return linear(p.i("m") * p.i("n")); };
  plans["act"] = {"elementwise.cl", {{"act_forward", per_element}}};
  plans["act_bwd"] = {"elementwise.cl", {{"act_backward", per_element}}};
  plans["add"] = {"elementwise.cl", {{"add", per_element}}};
  plans["mul"] = {"elementwise.cl", {{"mul", per_element}}};
  plans["bias_add"] = {"elementwise.cl", {{"bias_add", per_matrix_element}}};
  plans["bias_add_bwd"] = {"elementwise.cl",
                           {{"bias_add_backward_data", per_matrix_element},
                            {"bias_add_backward_bias", [](const Problem& p) { return linear(p.i("n"), 64); }}}};
}

}  // namespace plumbline::ocl
