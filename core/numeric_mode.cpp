#include "core/numeric_mode.hpp"

#include <cmath>

#include "core/error.hpp"

namespace plumbline {

namespace {
const char* const kKnown = "exact (the default), tf32, bf16x3, winograd(2,3), winograd(4,3)";
}

NumericMode NumericMode::parse(const std::string& text) {
  NumericMode mode;
  if (text == "exact") return mode;
  if (text == "tf32") return mode.kind = Kind::Tf32, mode;
  if (text == "bf16x3") return mode.kind = Kind::Bf16x3, mode;
  if (text == "winograd(2,3)" || text == "winograd(4,3)") {
    mode.kind = Kind::Winograd;
    mode.m = text[9] - '0';
    mode.r = 3;
    return mode;
  }
  throw Error("numeric mode '" + text + "': the modes are " + kKnown + " (docs/verification.md)");
}

std::string NumericMode::name() const {
  switch (kind) {
    case Kind::Exact:
      return "exact";
    case Kind::Tf32:
      return "tf32";
    case Kind::Bf16x3:
      return "bf16x3";
    case Kind::Winograd:
      return "winograd(" + std::to_string(m) + "," + std::to_string(r) + ")";
  }
  return "exact";
}

void NumericMode::check_applies(const std::string& op) const {
  const bool products = op == "matmul" || op == "conv2d" || op == "conv2d_bwd_data" || op == "conv2d_bwd_weight";
  if (kind == Kind::Winograd && op != "conv2d") throw Error("numeric mode " + name() + " computes conv2d; " + op + " has no Winograd form here");
  if ((kind == Kind::Tf32 || kind == Kind::Bf16x3) && !products)
    throw Error("numeric mode " + name() + " covers the operators whose sums are of the operator's own products (matmul, conv2d, " +
                "conv2d_bwd_data, conv2d_bwd_weight); " + op + " is not among them yet");
}

std::vector<std::pair<std::string, int64_t>> NumericMode::fixed(const std::string& op) const {
  if (kind != Kind::Winograd || op != "conv2d") return {};
  return {{"r", r}, {"s", r}, {"sh", 1}, {"sw", 1}, {"dh", 1}, {"dw", 1}};
}

std::string NumericMode::condition(const std::string& op) const {
  std::string c;
  for (const auto& [name, value] : fixed(op)) c += (c.empty() ? "" : " && ") + name + " == " + std::to_string(value);
  return c;
}

double NumericMode::product_rounding() const {
  switch (kind) {
    case Kind::Tf32:
      // |a' - a| < 2^-10 |a| (truncation; rounding halves it) for each input: (2 * 2^-10 + 2^-20) |a b|.
      return 2 * std::ldexp(1.0, -10) + std::ldexp(1.0, -20);
    case Kind::Bf16x3:
      // a = hi + lo + e with |a - hi| <= 2^-8 |a|, |e| <= 2^-8 |a - hi|: a b - (hi hi + hi lo + lo hi) =
      // lo lo + (hi + lo) e_b + e_a (hi + lo) + e_a e_b, at most ((1 + 2^-8)^2 + 2 (1 + 2^-16)) 2^-16 |a b| < (3 + 2^-6) 2^-16 |a b|.
      return (3 + std::ldexp(1.0, -6)) * std::ldexp(1.0, -16);
    case Kind::Exact:
    case Kind::Winograd:
      break;
  }
  return 0;
}

double NumericMode::input_absolute() const {
  if (kind == Kind::Tf32) return std::ldexp(1.0, -136);    // truncated to the TF32 subnormal grid
  if (kind == Kind::Bf16x3) return std::ldexp(1.0, -134);  // lo rounded to half bf16's subnormal spacing
  return 0;
}

double NumericMode::input_overflow() const {
  // The largest value (2 - 2^-b) 2^127 plus half its ulp, for b explicit mantissa bits.
  if (kind == Kind::Tf32) return std::ldexp(1.0, 128) - std::ldexp(1.0, 116);
  if (kind == Kind::Bf16x3) return std::ldexp(1.0, 128) - std::ldexp(1.0, 119);
  return INFINITY;
}

}  // namespace plumbline
