#include "egraph/equivalence.hpp"

#include <cmath>
#include <sstream>

#include "egraph/rules.hpp"

namespace plumbline::egraph {

static double noise(const TensorF& f, const TensorD& d) {
  double n = 0;
  for (int64_t i = 0; i < d.numel(); ++i)
    if (std::isfinite(d[i]) && std::isfinite(f[i])) n = std::max(n, std::abs(static_cast<double>(f[i]) - d[i]));
  return n;
}

static std::string num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

SideComparison compare_sides(const std::string& name, const TensorD& l64, const TensorD& r64, const TensorF& l32, const TensorF& r32,
                             Numerics numerics, double approx_bound, bool integer_inputs) {
  SideComparison c;
  if (!(l64.shape == r64.shape)) {
    c.passed = false;
    c.worst_ratio = INFINITY;
    c.message = name + ": the left side is " + l64.shape.str() + ", the right side " + r64.shape.str();
    return c;
  }
  const bool bitwise = numerics == Numerics::Exact && integer_inputs;
  const double n = std::max(noise(l32, l64), noise(r32, r64));
  auto fail = [&](int64_t i, double ratio, const std::string& why) {
    if (c.passed || ratio > c.worst_ratio) {
      c.worst_ratio = ratio;
      c.worst_index = i;
      c.lhs = l64[i];
      c.rhs = r64[i];
    }
    if (c.passed) c.message = name + "[" + std::to_string(i) + "]: " + why;
    c.passed = false;
  };
  for (int64_t i = 0; i < l64.numel(); ++i) {
    const double l = l64[i], r = r64[i];
    if (!std::isfinite(l) || !std::isfinite(r)) {
      const bool same = (std::isnan(l) && std::isnan(r)) || (std::isinf(l) && l == r);
      if (!same) fail(i, INFINITY, "left " + num(l) + ", right " + num(r) + " (non-finite values differ)");
      continue;
    }
    if (bitwise) {
      const bool same32 = l32[i] == r32[i] || (std::isnan(l32[i]) && std::isnan(r32[i]));
      if (l != r || !same32)
        fail(i, INFINITY,
             "left " + num(l) + ", right " + num(r) + " in double; " + num(l32[i]) + " vs " + num(r32[i]) +
                 " in float (exact rule on integer inputs: must be equal bit for bit)");
      continue;
    }
    const double allowed =
        numerics == Numerics::Approx ? approx_bound * (1 + std::abs(r)) : std::ldexp(n, -20) + std::ldexp(std::max(std::abs(l), std::abs(r)), -40);
    const double diff = std::abs(l - r);
    const double ratio = diff == 0 ? 0 : diff / allowed;
    if (ratio > 1) {
      fail(i, ratio, "left " + num(l) + ", right " + num(r) + ", difference " + num(diff) + " > allowed " + num(allowed));
    } else if (c.passed && ratio > c.worst_ratio) {
      c.worst_ratio = ratio;
      c.worst_index = i;
      c.lhs = l, c.rhs = r, c.allowed = allowed;
    }
  }
  return c;
}

}  // namespace plumbline::egraph
