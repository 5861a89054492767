// Error models of the elementwise family.
//
// Activations are running-error bounds: the error of each rounded step, weighted by how the result
// depends on it, with the OpenCL 1.2 accuracy of the built-ins (exp 3 ulp, tanh 5, erf 16, division
// 2.5). The result is M with |kernel - ref| <= kC * u * M; it stays meaningful where the formula
// cancels (1 + tanh(z) as tanh -> -1, 1 - s for s -> 1), which a bound relative to |y| alone would
// not survive. Inputs are exact (float values evaluated in double).
#include <cmath>

#include "check/error_models.hpp"
#include "reference/activation.hpp"

namespace plumbline::models {

namespace {
constexpr double kUnderflowUnits = 1.1754943508222875e-38 / kUnitRoundoff;  // FLT_MIN, in units of u
constexpr double kGeluK = 0.7978845608028654, kGeluC = 0.044715;
}  // namespace

double act_magnitude(Act a, double x) {
  if (!std::isfinite(x)) return 0;  // limits and NaN: compared by class, not by size
  const double ax = std::abs(x);
  switch (a) {
    case Act::None:
    case Act::Relu:
      return 0;  // copies: exact
    case Act::Sigmoid:
      return 8 * sigmoid_of(x);
    case Act::Tanh:
      return 8 * std::abs(std::tanh(x));
    case Act::Silu:
      return 10 * ax * sigmoid_of(x);
    case Act::GeluTanh: {
      const double inner = kGeluK * (x + kGeluC * x * x * x), t = std::tanh(inner);
      // tanh's own error (5 ulp of |t|) and the rounding of 1 + t, both scaled by 0.5|x|; the argument's
      // four roundings scaled by d tanh / d inner = 1 - t^2; the final products.
      return 0.5 * ax * (6 * (1 + std::abs(t)) + 4 * (1 - t * t) * kGeluK * (ax + kGeluC * ax * ax * ax)) + 3 * std::abs(act_forward(a, x));
    }
    case Act::GeluErf: {
      const double z = x / std::sqrt(2.0), e = std::erf(z);
      // erf's 16 ulp and 1 + erf's rounding, scaled by 0.5|x|; the rounding of x / sqrt 2 through erf'.
      return 0.5 * ax * (17 * (1 + std::abs(e)) + 2 * std::abs(z) * 1.1283791670955126 * std::exp(-z * z)) + 3 * std::abs(act_forward(a, x));
    }
  }
  return 0;
}

double slope_magnitude(Act a, double x) {
  if (!std::isfinite(x)) return 0;
  const double ax = std::abs(x);
  switch (a) {
    case Act::None:
    case Act::Relu:
      return 0;
    case Act::Sigmoid: {
      const double s = sigmoid_of(x);
      return 10 * (s + s * s);
    }
    case Act::Tanh: {
      const double t = std::tanh(x);
      return 10 * (1 + t * t);
    }
    case Act::Silu: {
      const double s = sigmoid_of(x);
      return 12 * s * (1 + ax * (1 + s));
    }
    case Act::GeluTanh: {
      const double inner = kGeluK * (x + kGeluC * x * x * x), t = std::tanh(inner);
      const double dinner = kGeluK * (1 + 3 * kGeluC * x * x);
      return 8 * (0.5 * (1 + std::abs(t)) + 0.5 * ax * (1 + t * t) * dinner) + 4 * (1 - t * t) * std::abs(inner) * (1 + ax * dinner);
    }
    case Act::GeluErf: {
      const double z = x / std::sqrt(2.0), phi = 0.3989422804014327 * std::exp(-0.5 * x * x);
      return 18 * (0.5 * (1 + std::abs(std::erf(z))) + ax * phi * (1 + x * x));
    }
  }
  return 0;
}

void act_departure(ErrorModel& m, int64_t n, int64_t i, Act a, double x, double dx) {
  if (a != Act::GeluTanh && a != Act::GeluErf && a != Act::Silu) return;
  if (x == -INFINITY) {
    m.depart(n, i, IeeeOutcome::kNaN, EdgeRule::Limit,
             std::string(a == Act::GeluTanh  ? "gelu_tanh"
                         : a == Act::GeluErf ? "gelu_erf"
                                             : "silu") +
                 "(-Inf) is -0 by its limit, where IEEE evaluation of x times its gate gives -Inf x 0 = NaN");
  } else if (a == Act::Silu && x - kBoundConstant * kUnitRoundoff * dx <= -88.72) {
    // exp(-x) beyond FLT_MAX (ln FLT_MAX = 88.7228; exp errs by 3 ulp): x / Inf, or x times a 0 sigmoid.
    m.depart(n, i, IeeeOutcome::kZero, EdgeRule::Overflow,
             "silu's exp(-x) overflows float below x = -88.72, where x / (1 + exp(-x)) gives -0 and the true value is not below "
             "float's smallest normal");
  }
}

// act' evaluated as its formula in IEEE arithmetic: gelu_tanh' = 0.5 (1 + t) + 0.5 x (1 - t^2) k (1 + 3c x^2),
// gelu_erf' = Phi(x) + x phi(x), silu' = s (1 + x (1 - s)) are Inf x 0 = NaN at +-Inf (their limits are 1
// and 0), and gelu_tanh's x^2 overflows float beyond 1.8e19, where 0 x Inf is NaN too.
void slope_departure(ErrorModel& m, int64_t n, int64_t i, Act a, double x) {
  if (a != Act::GeluTanh && a != Act::GeluErf && a != Act::Silu) return;
  const std::string name = a == Act::GeluTanh ? "gelu_tanh" : a == Act::GeluErf ? "gelu_erf" : "silu";
  if (std::isinf(x))
    m.depart(n, i, IeeeOutcome::kNaN, EdgeRule::Limit,
             name + "'(+-Inf) is its limit (1 or 0), where IEEE evaluation of its formula gives Inf x 0 = NaN");
  else if (a == Act::GeluTanh && std::abs(x) >= 1.8446743523953730e19)  // sqrt of float's overflow threshold
    m.depart(n, i, IeeeOutcome::kNaN, EdgeRule::Overflow, "gelu_tanh's derivative squares x, which overflows float beyond 1.8e19: 0 x Inf = NaN");
}

namespace {

std::vector<ErrorModel> act_model(const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
  const Act a = parse_act(p.s("act"));
  ErrorModel m{a == Act::None || a == Act::Relu, 1, 0, TensorD(in[0].shape)};
  for (int64_t i = 0; i < in[0].numel(); ++i) {
    m.mag[i] = act_magnitude(a, in[0][i]);
    act_departure(m, in[0].numel(), i, a, in[0][i]);
  }
  return moved(m);
}

std::vector<ErrorModel> act_bwd_model(const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool) {
  const Act a = parse_act(p.s("act"));
  // d_x = d_y * act'(x): act' carries slope_magnitude, the product one more rounding.
  ErrorModel m{false, 1, 1, TensorD(in[0].shape), TensorD(in[0].shape)};
  for (int64_t i = 0; i < in[0].numel(); ++i) {
    // act' underflowing in float (sigmoid(-104) is below the smallest subnormal) errs by up to FLT_MIN
    // times the factors of its formula (up to |x|), which d_y then scales.
    const bool smooth = a != Act::None && a != Act::Relu;
    m.mag[i] =
        std::abs(in[1][i]) * (slope_magnitude(a, in[0][i]) + (smooth && std::isfinite(in[0][i]) ? kUnderflowUnits * (1 + std::abs(in[0][i])) : 0.0));
    if (inf_times_vanishing_slope(a, in[1][i], in[0][i])) m.peak[i] = INFINITY;
    slope_departure(m, in[0].numel(), i, a, in[0][i]);
  }
  return moved(m);
}

}  // namespace

void add_elementwise(std::map<std::string, ErrorModelFn>& m) {
  m["act"] = act_model;
  m["act_bwd"] = act_bwd_model;
  // One rounding each: gamma(1) * (|a| + |b|) or |a * b|; exact on integers.
  m["add"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) { return linear(p, in, {1}, ints); };
  m["mul"] = m["add"];
  m["bias_add"] = m["add"];
  // d_x is a copy (exact); d_bias sums m rows.
  m["bias_add_bwd"] = [](const Problem& p, const std::vector<TensorD>& in, const std::vector<TensorD>&, bool ints) {
    auto v = linear(p, in, {0, static_cast<double>(p.i("m"))}, ints);
    v[0].exact = true;
    return v;
  };
}

}  // namespace plumbline::models
