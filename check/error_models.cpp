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

std::vector<ErrorModel> error_models(const Problem& p, const std::vector<TensorD>& inputs, const std::vector<TensorD>& ref, bool integer_inputs,
                                     NonfinitePolicy policy) {
  auto it = table().find(p.op());
  if (it == table().end()) throw Error("operator '" + p.op() + "' has no error model yet");
  std::vector<ErrorModel> m = it->second(p, inputs, ref, integer_inputs);
  if (m.size() != ref.size()) throw Error("error model of " + p.op() + " covers the wrong number of outputs");
  for (auto& model : m) {
    model.storage = dtype_of(p);  // every output is stored in the problem's format
    model.nonfinite = policy;
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

void models::overflowing_averages(ErrorModel& m, const Problem& p, const TensorD& x, const TensorD& divisor, double terms, const std::string& sum) {
  // The reference is linear: on the positive and negative finite parts it gives their averages, on an
  // indicator of +Inf, -Inf or NaN the share of such terms.
  TensorD pos(x.shape), neg(x.shape), pos_inf(x.shape), neg_inf(x.shape), nan(x.shape);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double v = x[i];
    if (std::isnan(v))
      nan[i] = 1;
    else if (std::isinf(v))
      (v > 0 ? pos_inf : neg_inf)[i] = 1;
    else
      (v > 0 ? pos : neg)[i] = std::abs(v);
  }
  const TensorD P = run_reference(p, {pos})[0], N = run_reference(p, {neg})[0];
  const TensorD PI = run_reference(p, {pos_inf})[0], NI = run_reference(p, {neg_inf})[0], NA = run_reference(p, {nan})[0];
  // A partial sum of one sign's terms, each addition rounded, reaches at most their sum times 1 + gamma.
  const double threshold = overflow_threshold(DType::F32) / (1 + gamma_of(terms));
  for (int64_t o = 0; o < P.numel(); ++o) {
    const bool over_pos = P[o] * divisor[o] >= threshold, over_neg = N[o] * divisor[o] >= threshold;
    if ((!over_pos && !over_neg) || NA[o] > 0 || (PI[o] > 0 && NI[o] > 0)) continue;  // no overflow, or NaN either way
    uint8_t c = 0;
    if (PI[o] > 0)
      c = over_neg ? IeeeOutcome::kNaN : 0;  // +Inf + an overflowed -Inf
    else if (NI[o] > 0)
      c = over_pos ? IeeeOutcome::kNaN : 0;
    else
      c = (over_pos ? IeeeOutcome::kPosInf : 0) | (over_neg ? IeeeOutcome::kNegInf : 0) | (over_pos && over_neg ? IeeeOutcome::kNaN : 0);
    if (c) m.depart(P.numel(), o, c, EdgeRule::Overflow, sum + " overflows float before the division, where the average does not");
  }
}

}  // namespace plumbline
