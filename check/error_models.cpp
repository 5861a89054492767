#include "check/error_models.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "reference/reference.hpp"

namespace plumbline {

namespace {

std::map<std::string, ErrorModelFn>& table() {
  static std::map<std::string, ErrorModelFn> t = [] {
    std::map<std::string, ErrorModelFn> m;
    models::add_elementwise(m);
    models::add_reductions(m);
    models::add_gemm(m);
    models::add_pooling(m);
    models::add_softmax(m);
    models::add_norms(m);
    models::add_conv(m);
    return m;
  }();
  return t;
}

}  // namespace

bool has_error_model(const std::string& op) { return table().count(op) > 0; }

void add_error_model(const std::string& op, ErrorModelFn fn) {
  if (!fn) throw Error("the error model of '" + op + "' is empty");
  if (!table().emplace(op, std::move(fn)).second) throw Error("operator '" + op + "' has an error model already");
}

std::vector<ErrorModel> error_models(const Problem& p, const std::vector<TensorD>& inputs, const std::vector<TensorD>& ref, bool integer_inputs) {
  auto it = table().find(p.op());
  if (it == table().end()) throw Error("operator '" + p.op() + "' has no error model yet");
  std::vector<ErrorModel> m = it->second(p, inputs, ref, integer_inputs);
  if (m.size() != ref.size()) throw Error("error model of " + p.op() + " covers the wrong number of outputs");
  for (auto& model : m) {
    model.storage = dtype_of(p);  // every output is stored in the problem's format
    // Integer inputs sum exactly in float32 only while every partial sum stays below 2^24, and mag
    // bounds them all; past it the bounded comparison is the right one.
    if (model.exact && std::any_of(model.mag.data.begin(), model.mag.data.end(), [](double v) { return !(v < 16777216.0); })) model.exact = false;
  }
  return m;
}

std::vector<ErrorModel> models::linear(const Problem& p, const std::vector<TensorD>& inputs, const std::vector<double>& k, bool exact, double ulps) {
  // The finite terms' magnitudes: an Inf or NaN input gives the output the reference's class, which
  // the comparison judges as it is (a float evaluation gets the same class while the finite terms stay
  // within range: mag bounds them, and past FLT_MAX the element is not judged). With |Inf| in it, mag
  // was Inf wherever an Inf met a finite term, and every such output went unjudged: a kernel giving
  // NaN (or any number) for an Inf passed.
  std::vector<TensorD> abs_inputs = inputs;
  for (auto& t : abs_inputs)
    for (auto& v : t.data) v = std::isfinite(v) ? std::abs(v) : 0.0;
  std::vector<TensorD> mag = run_reference(p, abs_inputs);
  std::vector<ErrorModel> out;
  for (size_t i = 0; i < mag.size(); ++i) out.push_back({exact, k.at(i), ulps, std::move(mag[i])});
  return out;
}

}  // namespace plumbline
