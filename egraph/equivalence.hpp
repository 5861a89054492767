#pragma once
// When are two evaluations of "the same" value equal? Used by the rule checker (a rule's two sides)
// and the whole-graph checks (an optimized graph against the original).
//
// Both sides are evaluated by the reference interpreter in double, and again in float. For each
// output element:
//   - non-finite: NaN where the other side has NaN, Inf of the same sign where it has Inf, and a
//     finite value where the other side has one;
//   - exact (a rule tagged exact, on small-integer inputs): bit for bit, in double and in float;
//   - reassoc (and exact on real inputs): |l - r| <= 2^-20 * N + 2^-40 * max(|l|, |r|), where N is
//     the larger of the two sides' float rounding noise (max |float - double| over the tensor). A
//     sound rewrite differs only by double rounding, some 2^-29 of the float noise; the margin of
//     2^9 covers a longer chain of double roundings; an unsound one differs by far more. The
//     second term is double rounding where float and double both round the same way (absorption);
//   - approx B: |l - r| <= B * (1 + |r|).
#include <string>

#include "core/tensor.hpp"

namespace plumbline::egraph {

enum class Numerics;

struct SideComparison {
  bool passed = true;
  double worst_ratio = 0;  // |l - r| / allowed, worst element
  int64_t worst_index = -1;
  double lhs = 0, rhs = 0, allowed = 0;  // at the worst element
  std::string message;                   // the first mismatch, in words
};

SideComparison compare_sides(const std::string& name, const TensorD& l64, const TensorD& r64, const TensorF& l32, const TensorF& r32,
                             Numerics numerics, double approx_bound, bool integer_inputs);

}  // namespace plumbline::egraph
