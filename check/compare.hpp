#pragma once
// Comparison of a kernel's float32 output with the reference (double), in DESIGN.md's layers:
//   exact:     integer inputs make linear operators exact in float32: bit-for-bit (+-0 aside);
//   bounded:   |kernel - ref| <= kC * (gamma(K) * mag + ulps * u * |ref|) + FLT_MIN, per element, where
//              mag is the magnitude of the terms the output sums (the reference on |inputs| for linear
//              operators, a per-operator derivation otherwise), K the reduction length, u = 2^-24;
//   non-finite: NaN where the reference has NaN, Inf of the same sign where it has Inf (or where the
//              true value lies beyond float's range), and a finite number where the reference has one.
// Outputs stored in f16 or bf16 (core/dtype.hpp) add the final rounding to the storage format: with b32
// the bound above (float32 accumulation), b = b32 + u_s * (|ref| + b32) + eta_s / 2, u_s the format's unit
// roundoff and eta_s its smallest subnormal; exact mode compares with the reference rounded to the
// format, and the format's range decides where Inf is right.
// The worst error/bound ratio is reported: a healthy kernel sits well below 1. An output mostly zero
// where the reference is not is untrustworthy, whatever the ratio.
// Non-finite policies (docs/verification.md): the reference follows rules of its own at the edges
// (the limit at an infinite input, padding that contributes nothing, no overflow of an intermediate
// where the result is finite). Each family's error model records, element by element, where IEEE
// arithmetic on the operator's defining formula gives something else (ErrorModel::ieee); a kernel that
// gives it there fails under `limits` with the rule named, and passes under `ieee`.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include "core/dtype.hpp"
#include "core/tensor.hpp"

namespace plumbline {

inline constexpr double kUnitRoundoff = 1.0 / (1 << 24);  // float32: u = 2^-24
inline constexpr double kBoundConstant = 2.0;             // kC: slack for the bounds' first-order terms
// The additions one term of a K-term sum may pass through. Any order up to 2^16 terms. Past it,
// gamma(K) = K u / (1 - K u) tends to 1 (at 2^22 terms the bound is already 2/3 of sum |x|) and breaks
// down at K u >= 1 (infinite at 2^24 terms, negative past it): no bound that allows every order says
// anything there. So a longer reduction is judged as a blocked one, each term in at most
// max(2^16, 2 sqrt(K)) additions (Higham, Accuracy and Stability, 2nd ed., 4.2: a sum whose terms
// pass through at most d additions errs by gamma(d) sum |x|). Every parallel reduction fits, version
// 1's one-work-group sums too (2^16 terms a work-item over 16M); one float accumulator over millions
// of terms does not, and may fail: past 2^24 terms such a sum can stop growing.
inline double summation_depth(double k) { return k <= 65536 ? k : std::max(65536.0, 2 * std::sqrt(k)); }
inline double gamma_of(double k) {
  const double d = summation_depth(k) * kUnitRoundoff;
  return d / (1 - d);
}

// Which edge answers pass: the reference's rules alone, or also IEEE arithmetic's on the formula.
enum class NonfinitePolicy { Limits, Ieee };
const char* to_string(NonfinitePolicy p);
// "limits" or "ieee"; Error naming both otherwise. `what` says where the word came from.
NonfinitePolicy nonfinite_policy_from(const std::string& word, const std::string& what = "--nonfinite");

// The reference's rule that IEEE evaluation of the formula departs from at an element.
enum class EdgeRule : uint8_t {
  None,
  Limit,    // an infinite input's limit (gelu(-Inf) = -0), or 0 x log 0 = 0: IEEE gives NaN
  Padding,  // padding contributes nothing: IEEE multiplies it as zeros, and 0 x Inf = NaN
  Overflow  // an intermediate of the formula overflows float where the result does not
};
// What IEEE evaluation may give at an element where it departs from the reference (several classes
// where it depends on the order of a sum).
struct IeeeOutcome {
  static constexpr uint8_t kNaN = 1, kPosInf = 2, kNegInf = 4, kZero = 8, kValue = 16;
  uint8_t classes = 0;  // none: no departure here
  EdgeRule rule = EdgeRule::None;
  double value = 0;  // with kValue: a finite result, judged within the element's bound
};
// The verdict a rule's mismatches get: "non-finite: limit", "non-finite: padding", "overflow".
std::string verdict_of(EdgeRule r);

// How large an output's error may be. mag has the output's shape (empty tensor: zero).
struct ErrorModel {
  bool exact = false;  // compare bit for bit
  double k = 0;        // reduction length: terms summed into one output element
  double ulps = 0;     // rounding of the final steps, in units of u * |ref|
  TensorD mag;         // magnitude of the summed terms, per element
  // The largest intermediate an evaluation must hold, per element (empty: mag). Beyond float's range
  // no float kernel can hold it, and the element is not judged.
  TensorD peak;
  DType storage = DType::F32;  // the outputs' storage format (error_models() sets it from the problem)
  // Per element, where IEEE evaluation of the formula departs from the reference (empty: nowhere), and
  // per rule what happens there, in words, for the messages.
  std::vector<IeeeOutcome> ieee;
  std::array<std::string, 4> ieee_why;
  NonfinitePolicy nonfinite = NonfinitePolicy::Limits;
  // A numeric mode's (core/numeric_mode.hpp): the relative error of each product from what the mode
  // does to its inputs, bounded by product_rounding * mag beside the accumulation's gamma(k) * mag.
  double product_rounding = 0;
  std::string mode = "exact";  // the mode the bound is of, for the messages
  // Records a departure at element i of an output of n elements (classes add up; the first rule and
  // the first words for a rule stay).
  void depart(int64_t n, int64_t i, uint8_t classes, EdgeRule rule, const std::string& why, double value = 0);
};

struct Comparison {
  bool passed = true;
  bool untrustworthy = false;  // mostly zeros where the reference is not
  int64_t elements = 0, mismatches = 0, nonfinite_mismatches = 0;
  int64_t unrepresentable = 0;  // elements whose terms exceed float's range: not judged
  double worst_ratio = 0;       // max error / bound (exact mode: 0, or infinity at a mismatch)
  double max_error = 0;         // largest |kernel - ref| over the finite elements judged
  int64_t worst_index = -1;
  double worst_got = 0, worst_ref = 0, worst_bound = 0;
  std::string message;       // the first problem, in words (empty when passed)
  int64_t first_index = -1;  // the element the message names, and what is wrong with it
  std::string first_why;
  int64_t zero_where_nonzero = 0, nonzero_refs = 0;  // the untrustworthy test's counts
  // Mismatches that are IEEE evaluation's answer where the reference follows a rule (policy limits):
  // counted in mismatches too; rule is the first one's. The message names a proper mismatch first.
  int64_t rule_mismatches = 0;
  EdgeRule rule = EdgeRule::None;
  std::string rule_message, rule_why;  // the first such mismatch, in words
  int64_t rule_index = -1;
  int64_t ieee_accepted = 0;  // elements passed under the ieee policy only
};

// The verdict of a failed comparison: untrustworthy, non-finite, wrong, or the rule's
// ("non-finite: limit", ...) where every mismatch is IEEE evaluation's answer.
std::string verdict_of(const Comparison& c);

// `subject` names what computed `got` in the messages ("kernel"; "result" for a function's).
Comparison compare(const std::string& name, const TensorF& got, const TensorD& ref, const ErrorModel& model, const std::string& subject = "kernel");

// The per-element bound compare() applies (0 in exact mode, Inf where not judged).
TensorD error_bounds(const TensorD& ref, const ErrorModel& model);

}  // namespace plumbline
