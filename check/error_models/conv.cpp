// Error models of the convolution family: linear, so the reference on |inputs| bounds every sum.
//   conv2d: c/g * r * s products (+ the bias) per output;
//   conv2d_bwd_data: at most k/g * r * s terms per input element;
//   conv2d_bwd_weight: n * p * q terms per weight, and per bias.
// Exact on integer inputs.
#include "check/error_models.hpp"
#include "core/registry.hpp"

namespace plumbline::models {

void add_conv(std::map<std::string, ErrorModelFn>& m) {
  m["conv2d"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    return linear(p, in, {static_cast<double>(p.i("c") / p.i("g") * p.i("r") * p.i("s") + 1)}, ints);
  };
  m["conv2d_bwd_data"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    return linear(p, in, {static_cast<double>(p.i("k") / p.i("g") * p.i("r") * p.i("s"))}, ints);
  };
  m["conv2d_bwd_weight"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    const Shape y = signature_of(p).input("d_y").shape;
    const double terms = static_cast<double>(y[0] * y[2] * y[3]);
    return linear(p, in, std::vector<double>(p.i("bias") ? 2 : 1, terms), ints);
  };
}

}  // namespace plumbline::models
