// Launch plans of the GEMM family (opencl/kernels/gemm.cl).
#include "opencl/launch.hpp"

namespace plumbline::ocl {

void add_gemm_plans(std::map<std::string, LaunchPlan>& plans) {
  plans["matmul"] = {"gemm.cl", {{"matmul", [](const Problem& p) { return tiles2d(p.i("n"), p.i("m"), 16, p.i("batch")); }}}};
}

}  // namespace plumbline::ocl
