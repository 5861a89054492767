// Error models of the pooling family.
//   max_pool2d: selects an input: exact.
//   max_pool2d_bwd: each d_x sums the d_y of the windows whose first maximum it is, at most
//     ceil(kh/sh) * ceil(kw/sw) of them: gamma(K) * the reference on (x, |d_y|); exact on integers.
//   avg_pool2d: a window sum (kh*kw terms) and one division (2.5 ulp, counted in K); a window sum that
//     overflows before the division is IEEE evaluation's answer (overflowing_averages, error_models.hpp).
//   avg_pool2d_bwd: up to ceil(kh/sh) * ceil(kw/sw) shares, each divided once.
//   global_avg_pool: h*w terms, each scaled by 1/(h*w) (two roundings per term, counted in K); IEEE
//     evaluation of the formula (the sum, then the division) may overflow in the sum.
//   global_avg_pool_bwd: one division.
#include <cmath>

#include "check/error_models.hpp"
#include "reference/reference.hpp"

namespace plumbline::models {

namespace {

double windows_per_cell(const Problem& p) {
  auto per_axis = [](int64_t k, int64_t s) { return static_cast<double>((k + s - 1) / s); };
  return per_axis(p.i("kh"), p.i("sh")) * per_axis(p.i("kw"), p.i("sw"));
}

}  // namespace

void add_pooling(std::map<std::string, ErrorModelFn>& m) {
  m["max_pool2d"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>& ref, bool) {
    return moved(ErrorModel{true, 0, 0, TensorD(ref[0].shape)});
  };
  m["max_pool2d_bwd"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    TensorD abs_dy = in[1];
    for (auto& v : abs_dy.data) v = std::abs(v);
    return moved(ErrorModel{ints, windows_per_cell(p), 0, run_reference(p, {in[0], abs_dy})[0]});
  };
  m["avg_pool2d"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
    const double window = static_cast<double>(p.i("kh") * p.i("kw"));
    auto v = linear(p, in, {window + 3}, false);
    // Each window's divisor: kh * kw, or (cip=0) its cells inside the input, which the average of ones
    // over kh * kw counts.
    TensorD divisor = run_reference(p.with("cip", int64_t{1}), {TensorD(in[0].shape, 1.0)})[0];
    for (auto& d : divisor.data) d = p.i("cip") ? window : std::round(d * window);
    overflowing_averages(v[0], p, in[0], divisor, window, "the window's sum");
    return v;
  };
  m["avg_pool2d_bwd"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
    return linear(p, in, {windows_per_cell(p) + 3}, false);
  };
  m["global_avg_pool"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
    const double plane = static_cast<double>(p.i("h") * p.i("w"));
    auto v = linear(p, in, {plane + 3}, false);
    overflowing_averages(v[0], p, in[0], TensorD(v[0].mag.shape, plane), plane, "the plane's sum");
    return v;
  };
  m["global_avg_pool_bwd"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
    return linear(p, in, {3}, false);
  };
}

}  // namespace plumbline::models
