#include "check/error_models.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

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

namespace {

// The outputs reached by a product of two operands' entries that `pick` selects in each (true for the
// first operand's, the second's).
TensorD reached_by(const Problem& p, const std::vector<TensorD>& in, const std::function<bool(int, double)>& pick) {
  std::vector<TensorD> marks;
  for (size_t t = 0; t < in.size(); ++t) {
    marks.emplace_back(in[t].shape);
    if (t < 2)
      for (int64_t i = 0; i < in[t].numel(); ++i) marks[t][i] = pick(static_cast<int>(t), in[t][i]) ? 1.0 : 0.0;
  }
  return run_reference(p, marks)[0];
}

// Leaves unjudged (peak Inf) the outputs with a product of one operand's entry that `pick(true, v)`
// selects and the other's that `pick(false, v)` selects, either operand first.
void unjudged_where(ErrorModel& m, const Problem& p, const std::vector<TensorD>& in, const std::function<bool(bool, double)>& pick) {
  for (int side = 0; side < 2; ++side) {
    if (std::none_of(in[side].data.begin(), in[side].data.end(), [&](double v) { return pick(true, v); })) continue;  // nothing reached
    const TensorD reached = reached_by(p, in, [&](int t, double v) { return pick(t == side, v); });
    for (int64_t o = 0; o < reached.numel(); ++o)
      if (reached[o] > 0) m.peak[o] = INFINITY;
  }
}

// What a mode's rounding of the inputs leaves no float evaluation to judge by: an input it rounds
// past float's range (within half a TF32 ulp of FLT_MAX, which has no TF32 neighbour below Inf); an
// infinite operand times a nonzero input below eta, which it may round to 0 (Inf or NaN); in bf16x3,
// an infinite operand times the other's lo part (nonzero where the value is no bf16), an Inf of lo's
// sign that may meet hi * hi's Inf of the other sign.
void mark_unjudgeable(ErrorModel& m, const Problem& p, const std::vector<TensorD>& in, const NumericMode& mode) {
  const double past = mode.input_overflow(), eta = mode.input_absolute();
  unjudged_where(m, p, in, [&](bool own, double v) { return !own || (std::isfinite(v) && std::abs(v) >= past); });
  unjudged_where(m, p, in, [&](bool own, double v) { return own ? std::isinf(v) : v != 0 && std::abs(v) < eta; });
  if (mode.kind == NumericMode::Kind::Bf16x3)
    unjudged_where(m, p, in, [](bool own, double v) {
      return own ? std::isinf(v) : std::isfinite(v) && static_cast<float>(v) != round_to(DType::BF16, static_cast<float>(v));
    });
}

// A subnormal input rounded by the mode errs by up to eta absolutely, not relatively: |a' b' - a b|
// <= delta |a b| + eta (|a| + |b|) + eta^2. Folded into mag as (eta / delta) (sum |a| + sum |b|) over
// each output's products (the reference on |a| beside ones, and on ones beside |b|), which
// product_rounding * mag then covers (the gamma(k) share it adds is below 1e-38 of the sums).
void add_subnormal_rounding(ErrorModel& m, const Problem& p, const std::vector<TensorD>& in, double eta_over_delta) {
  for (int operand = 0; operand < 2; ++operand) {
    std::vector<TensorD> parts;
    for (size_t t = 0; t < in.size(); ++t) {
      parts.emplace_back(in[t].shape, static_cast<int>(t) < 2 && static_cast<int>(t) != operand ? 1.0 : 0.0);
      if (static_cast<int>(t) == operand)
        for (int64_t i = 0; i < in[t].numel(); ++i) parts[t][i] = std::isfinite(in[t][i]) ? std::abs(in[t][i]) : 0.0;
    }
    const TensorD sums = run_reference(p, parts)[0];
    for (int64_t o = 0; o < sums.numel(); ++o) m.mag[o] += eta_over_delta * sums[o];
  }
}

}  // namespace

std::vector<ErrorModel> error_models(const Problem& p, const std::vector<TensorD>& inputs, const std::vector<TensorD>& ref, bool integer_inputs,
                                     NonfinitePolicy policy, const NumericMode& mode) {
  auto it = table().find(p.op());
  if (it == table().end()) throw Error("operator '" + p.op() + "' has no error model yet");
  std::vector<ErrorModel> m = it->second(p, inputs, ref, integer_inputs);
  if (!mode.is_exact()) {
    mode.check_applies(p.op());
    for (const auto& [name, value] : mode.fixed(p.op()))
      if (p.i(name) != value)
        throw Error("numeric mode " + mode.name() + " does not fit " + p.line() + ": it needs " + mode.condition(p.op()) + " (" + name + " is " +
                    std::to_string(p.i(name)) + ")");
    // The first output is the products' sum (d_bias, a plain sum of d_y, keeps its model).
    if (mode.kind == NumericMode::Kind::Winograd) {
      ErrorModel w = models::winograd(p, inputs, mode.m)[0];
      w.ieee = std::move(m[0].ieee), w.ieee_why = m[0].ieee_why;
      m[0] = std::move(w);
    } else {
      m[0].product_rounding = mode.product_rounding();
      m[0].k *= mode.products_per_term();
      add_subnormal_rounding(m[0], p, inputs, mode.input_absolute() / mode.product_rounding());
      // A rounded product may exceed |a b| (rounding up): what a float evaluation holds grows with it.
      if (m[0].peak.numel() == 0) m[0].peak = m[0].mag;
      for (auto& v : m[0].peak.data) v *= 1 + mode.product_rounding();
      mark_unjudgeable(m[0], p, inputs, mode);
    }
  }
  for (auto& model : m) model.mode = mode.name();
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
  // Nothing can overflow unless terms times the largest finite |x| reaches the threshold (most cases):
  // then the five reference runs below are skipped.
  const double threshold = overflow_threshold(DType::F32) / (1 + gamma_of(terms));
  double largest = 0;
  for (double v : x.data)
    if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
  if (largest * terms < threshold) return;
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
  // (threshold: a partial sum of one sign's terms, each addition rounded, reaches at most their sum
  // times 1 + gamma.)
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
