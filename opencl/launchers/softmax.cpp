// Launch plans of the softmax and loss family (opencl/kernels/softmax.cl): one 128-wide work-group
// per row; cross_entropy's forward is one work-group that walks the rows.
#include "opencl/launch.hpp"

namespace plumbline::ocl {

void add_softmax_plans(std::map<std::string, LaunchPlan>& plans) {
  const auto per_row = [](const Problem& p) { return groups(p.i("m"), 128); };
  plans["softmax"] = {"softmax.cl", {{"softmax_forward", per_row}}};
  plans["softmax_bwd"] = {"softmax.cl", {{"softmax_backward", per_row}}};
  plans["log_softmax"] = {"softmax.cl", {{"log_softmax_forward", per_row}}};
  plans["log_softmax_bwd"] = {"softmax.cl", {{"log_softmax_backward", per_row}}};
  plans["cross_entropy"] = {"softmax.cl", {{"cross_entropy_forward", [](const Problem&) { return groups(1, 128); }}}};
  plans["cross_entropy_bwd"] = {"softmax.cl", {{"cross_entropy_backward", [](const Problem& p) { return groups(p.i("b"), 128); }}}};
}

}  // namespace plumbline::ocl
