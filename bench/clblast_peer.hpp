#pragma once
// The OpenCL GEMM peer: CLBlast's SGEMM (Debian's libclblast) on the same device and queue as our
// kernels, for matmul and for the GEMM inside gemm_bias_act (CLBlast has no bias or activation: the
// peer does less work there, which the label says). Timed by wall clock around a finished queue: a
// CLBlast call may enqueue several kernels (padding, transposes), and its event covers the last only.
#include <memory>
#include <string>

#include "core/problem.hpp"
#include "opencl/runtime.hpp"

namespace plumbline::bench {

bool clblast_supports(const Problem& p);

class ClblastGemm {
 public:
  ClblastGemm(ocl::Runtime& rt, const Problem& p, uint64_t seed);
  double launch();  // seconds
  std::string label() const;

 private:
  ocl::Runtime& rt_;
  Problem p_;
  cl::Buffer a_, b_, c_;
};

}  // namespace plumbline::bench
