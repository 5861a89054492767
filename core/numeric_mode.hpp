#pragma once
// Numeric modes (docs/verification.md, "Numeric modes"): the arithmetic a kernel declares it computes
// in (a plan's `math MODE`, --math MODE), and is judged under, with that arithmetic's derived bound.
// `exact` is the default contract (float32 accumulation of every exact product); a mode never applies
// to a kernel that did not declare it, and no mode widens the default's bounds.
//   tf32          each product's inputs rounded or truncated to 10 explicit mantissa bits (the tensor
//                 cores' TF32), accumulation in float32;
//   bf16x3        each float32 input split into bf16 parts hi + lo, the products hi*hi + hi*lo + lo*hi
//                 kept (lo*lo dropped), accumulation in float32;
//   winograd(m,r) conv2d as Winograd's F(m x m, r x r) with Lavin and Gray's transforms (m = 2 or 4,
//                 r = 3): stride 1, dilation 1, r x s = 3 x 3.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace plumbline {

struct NumericMode {
  enum class Kind { Exact, Tf32, Bf16x3, Winograd };
  Kind kind = Kind::Exact;
  int m = 0, r = 0;  // winograd(m, r)

  // "exact", "tf32", "bf16x3", "winograd(2,3)", "winograd(4,3)"; Error listing them otherwise.
  static NumericMode parse(const std::string& text);
  std::string name() const;
  bool is_exact() const { return kind == Kind::Exact; }
  // Error unless the mode applies to op (tf32 and bf16x3: the GEMMs and convolutions whose products
  // are the operator's own; winograd: conv2d).
  void check_applies(const std::string& op) const;
  // The attribute values a problem of op must have (winograd(m,3): r = s = 3, stride and dilation
  // 1), and the same as a plan's when expression ("" for any problem).
  std::vector<std::pair<std::string, int64_t>> fixed(const std::string& op) const;
  std::string condition(const std::string& op) const;
  // The relative error of one product a * b from what the mode does to its inputs (0: none).
  double product_rounding() const;
  // The absolute error of the mode's rounding of an input below float's smallest normal (subnormal
  // spacing: tf32 2^-136, bf16 2^-133), beside product_rounding's relative one.
  double input_absolute() const;
  // The magnitude from which the mode's rounding of an input gives Inf (tf32 and bf16 parts have no
  // neighbour below Inf for float's largest values), or Inf for none.
  double input_overflow() const;
  // Products summed per term of the operator's sums (bf16x3: three).
  int products_per_term() const { return kind == Kind::Bf16x3 ? 3 : 1; }
};

}  // namespace plumbline
