// Launch plans of the reductions and shape family (opencl/kernels/reductions.cl).
#include "opencl/launch.hpp"

namespace plumbline::ocl {

void add_reduction_plans(std::map<std::string, LaunchPlan>& plans) {
  // One 256-wide work-group per row, or one in all for over = all.
  const auto per_row = [](const Problem& p) { return groups(p.s("over") == "all" ? 1 : p.i("m"), 256); };
  plans["sum"] = {"reductions.cl", {{"reduce_sum", per_row}}};
  plans["mean"] = {"reductions.cl", {{"reduce_mean", per_row}}};
  plans["transpose"] = {"reductions.cl", {{"transpose", [](const Problem& p) { return tiles2d(p.i("n"), p.i("m"), 16); }}}};
}

}  // namespace plumbline::ocl
