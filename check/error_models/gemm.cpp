// Error models of the GEMM family. matmul: each output sums k products, so |error| <= gamma(k) *
// (|A| @ |B|) for any summation order (fused multiply-adds only tighten it); exact on integer inputs.
#include "check/error_models.hpp"

namespace plumbline::models {

void add_gemm(std::map<std::string, ErrorModelFn>& m) {
  m["matmul"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    return linear(p, in, {static_cast<double>(p.i("k"))}, ints);
  };
}

}  // namespace plumbline::models
