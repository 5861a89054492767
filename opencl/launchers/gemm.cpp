// Launch plans of the GEMM family (opencl/kernels/gemm.cl).
#include "opencl/launch.hpp"

namespace plumbline::ocl {

void add_gemm_plans(std::map<std::string, LaunchPlan>& plans) {
  const auto output_tiles = [](const Problem& p) { return tiles2d(p.i("n"), p.i("m"), 16, p.i("batch")); };
  plans["matmul"] = {"gemm.cl", {{"matmul", output_tiles}}};
  plans["gemm_bias_act"] = {"gemm.cl", {{"gemm_bias_act_forward", output_tiles}}};
  plans["gemm_bias_act_bwd"] = {
      "gemm.cl",
      {{"gemm_bias_act_grad_pre", output_tiles},
       {"gemm_bias_act_grad_a", [](const Problem& p) { return tiles2d(p.i("k"), p.i("m"), 16, p.i("batch")); }},
       {"gemm_bias_act_grad_b",
        [](const Problem& p) {
          const bool shared = p.i("batch") == 0 || p.i("bshared");
          return tiles2d(p.i("n"), p.i("k"), 16, shared ? 1 : p.i("batch"));
        }},
       {"gemm_bias_act_grad_bias", [](const Problem& p) { return linear(p.i("n"), 64); }}},
      [](const Problem& p) { return std::vector<int64_t>{std::max<int64_t>(p.i("batch"), 1) * p.i("m") * p.i("n")}; }};
}

}  // namespace plumbline::ocl
