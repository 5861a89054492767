#include "check/compare.hpp"

#include <cfloat>
#include <cmath>
#include <sstream>

#include "core/error.hpp"
#include "core/parallel.hpp"

namespace plumbline {

namespace {

std::string show(double v) {
  std::ostringstream o;
  o.precision(9);
  o << v;
  return o.str();
}

// The storage format rounds to Inf from its largest value + half an ulp up (float: FLT_MAX + 2^103):
// a kernel may return Inf for a true value beyond the format's range.
bool beyond_format(double v, DType d) { return std::abs(v) >= overflow_threshold(d); }

// The model's bound at one element, before the FLT_MIN floor (0 in exact mode): float32's first-order
// bound, then the rounding to the storage format.
double reach_of(const ErrorModel& model, double gamma_k, double mag, double ref) {
  if (model.exact) return 0.0;
  const double b32 = kBoundConstant * ((gamma_k + model.product_rounding) * mag + model.ulps * kUnitRoundoff * std::abs(ref));
  if (model.storage == DType::F32) return b32;
  return b32 + unit_roundoff(model.storage) * (std::abs(ref) + b32) + min_subnormal(model.storage) / 2;
}

// The class bit of IeeeOutcome that a value falls in (0: a nonzero finite value).
uint8_t class_of(double v) {
  if (std::isnan(v)) return IeeeOutcome::kNaN;
  if (std::isinf(v)) return v > 0 ? IeeeOutcome::kPosInf : IeeeOutcome::kNegInf;
  return v == 0 ? IeeeOutcome::kZero : 0;
}

}  // namespace

const char* to_string(NonfinitePolicy p) { return p == NonfinitePolicy::Ieee ? "ieee" : "limits"; }

NonfinitePolicy nonfinite_policy_from(const std::string& word, const std::string& what) {
  if (word == "limits") return NonfinitePolicy::Limits;
  if (word == "ieee") return NonfinitePolicy::Ieee;
  throw Error(what + " '" + word + "': the non-finite policies are limits (the default) and ieee (docs/verification.md)");
}

std::string verdict_of(EdgeRule r) {
  static const char* const names[] = {"non-finite", "non-finite: limit", "non-finite: padding", "overflow"};  // by EdgeRule
  return names[static_cast<size_t>(r)];
}

std::string verdict_of(const Comparison& c) {
  if (c.untrustworthy) return "untrustworthy";
  if (c.mismatches > c.rule_mismatches) return c.nonfinite_mismatches ? "non-finite" : "wrong";
  return verdict_of(c.rule);
}

void ErrorModel::depart(int64_t n, int64_t i, uint8_t classes, EdgeRule r, const std::string& why, double v) {
  if (ieee.empty()) ieee.resize(static_cast<size_t>(n));
  std::string& words = ieee_why[static_cast<size_t>(r)];
  if (words.empty()) words = why;
  IeeeOutcome& o = ieee.at(static_cast<size_t>(i));
  if (o.rule == EdgeRule::None) o.rule = r;
  o.classes |= classes;
  if (classes & IeeeOutcome::kValue) o.value = v;
}

TensorD error_bounds(const TensorD& ref, const ErrorModel& model) {
  TensorD b(ref.shape);
  const double g = gamma_of(model.k);
  for (int64_t i = 0; i < ref.numel(); ++i) {
    const double mag = model.mag.numel() ? model.mag[i] : 0.0;
    const double peak = model.peak.numel() ? model.peak[i] : mag;
    if (std::isnan(mag) || !(std::max(peak, mag) <= static_cast<double>(FLT_MAX))) {
      b[i] = INFINITY;
      continue;
    }
    b[i] = model.exact ? 0.0 : reach_of(model, g, mag, ref[i]) + FLT_MIN;
  }
  return b;
}

namespace {

// Elements [begin, end) judged into c (its counts, its worst element, its first problem), as one loop
// over them would.
void compare_range(const std::string& name, const TensorF& got, const TensorD& ref, const ErrorModel& model, int64_t begin, int64_t end,
                   Comparison& c, const std::string& subject) {
  int64_t zero_where_nonzero = 0, nonzero_refs = 0;
  auto note = [&](int64_t i, double ratio, double bound, const std::string& why) {
    if (ratio > c.worst_ratio || c.worst_index < 0) {
      c.worst_ratio = ratio;
      c.worst_index = i;
      c.worst_got = got[i];
      c.worst_ref = ref[i];
      c.worst_bound = bound;
    }
    if (!why.empty() && c.message.empty()) {
      c.message = "output '" + name + "' element " + std::to_string(i) + ": " + why;
      c.first_index = i;
      c.first_why = why;
    }
  };
  // A value the reference's rules reject at element i: where it is IEEE evaluation's answer there
  // (ErrorModel::ieee), the ieee policy passes it and the limits policy names the rule; otherwise it
  // is a mismatch as it stands. `nonfinite`: one of class (NaN, Inf), not of size.
  auto reject = [&](int64_t i, double ratio, double bound, bool nonfinite, const std::string& why) {
    const double k = got[i];
    if (!model.ieee.empty()) {
      const IeeeOutcome& o = model.ieee[static_cast<size_t>(i)];
      const bool value_ok = (o.classes & IeeeOutcome::kValue) && std::isfinite(k) && std::abs(k - o.value) <= bound;
      if (o.rule != EdgeRule::None && ((class_of(k) & o.classes) || value_ok)) {
        if (model.nonfinite == NonfinitePolicy::Ieee) {
          ++c.ieee_accepted;
          return;
        }
        ++c.mismatches, ++c.rule_mismatches;
        note(i, ratio, bound, "");
        if (c.rule == EdgeRule::None) c.rule = o.rule;
        if (c.rule_message.empty()) {
          c.rule_why = why + " [" + verdict_of(o.rule) + ": " + model.ieee_why[static_cast<size_t>(o.rule)] + "; --nonfinite ieee accepts it]";
          c.rule_message = "output '" + name + "' element " + std::to_string(i) + ": " + c.rule_why;
          c.rule_index = i;
        }
        return;
      }
    }
    ++c.mismatches;
    if (nonfinite) ++c.nonfinite_mismatches;
    note(i, ratio, bound, why);
  };
  const double g = gamma_of(model.k);
  for (int64_t i = begin; i < end; ++i) {
    const double k = got[i], r = ref[i];
    // A NaN in the reference came from the mathematics (a NaN input, Inf - Inf); float overflow never
    // turns NaN into a number, so no magnitude excuses a kernel that is not NaN here, unless the model
    // marks the element (peak = Inf: rounding near a kink, where relu' may be 0 or 1, times Inf).
    const bool marked = model.peak.numel() && std::isinf(model.peak[i]);  // the model says: unjudgeable
    if (std::isnan(r) && !marked) {
      if (!std::isnan(k)) reject(i, INFINITY, 0, true, subject + " " + show(k) + ", reference NaN (non-finite class differs)");
      continue;
    }
    const double mag = model.mag.numel() ? model.mag[i] : 0.0;
    // A NaN magnitude or peak: the terms' own sizes overflowed (Inf * 0 in the bookkeeping).
    const double peak =
        std::isnan(mag) || (model.peak.numel() && std::isnan(model.peak[i])) ? INFINITY : (model.peak.numel() ? std::max(model.peak[i], mag) : mag);
    if (!(peak <= static_cast<double>(FLT_MAX) * (1 + kUnitRoundoff))) {  // no float evaluation can hold it (NaN: Inf * 0 in it)
      ++c.unrepresentable;
      continue;
    }
    if (std::isnan(r) || std::isinf(r) || beyond_format(r, model.storage)) {
      // Beyond the format's range: Inf of the same sign, or its largest finite value where the bound
      // reaches back below the threshold (the computed value may have rounded either way).
      const bool near = !std::isinf(r) && std::abs(r) - reach_of(model, g, mag, r) < overflow_threshold(model.storage);
      const bool ok =
          std::isnan(r) ? std::isnan(k) : (std::isinf(k) || (near && std::abs(k) >= max_finite(model.storage))) && std::signbit(k) == std::signbit(r);
      if (!ok) {
        // A finite reference beyond the format's range is said as the format stores it: +-Inf.
        const std::string stored = std::isfinite(r) ? std::string(", ") + (r < 0 ? "-inf" : "inf") + " in " + to_string(model.storage) +
                                                          " (its largest finite value is " + show(max_finite(model.storage)) + ")"
                                                    : "";
        reject(i, INFINITY, 0, true, subject + " " + show(k) + ", reference " + show(r) + stored + " (non-finite class differs)");
      }
      continue;
    }
    if (std::isinf(k) && std::signbit(k) == std::signbit(r) && std::abs(r) + reach_of(model, g, mag, r) >= overflow_threshold(model.storage))
      continue;  // within its bound of the overflow threshold: rounds to Inf
    if (std::isnan(k) || std::isinf(k)) {
      reject(i, INFINITY, 0, true, subject + " " + show(k) + " where the reference is finite (" + show(r) + ")");
      continue;
    }
    // Below FLT_MIN a float result may be a subnormal (spacing 2^-149) or flushed to zero (devices need
    // not support float denormals): FLT_MIN is the floor of every bound.
    const double bound = model.exact ? 0.0 : reach_of(model, g, mag, r) + FLT_MIN;
    const double err = model.exact ? std::abs(k - static_cast<double>(round_to(model.storage, static_cast<float>(r)))) : std::abs(k - r);
    if (r != 0 && std::abs(r) > bound) {
      ++nonzero_refs;
      if (k == 0) ++zero_where_nonzero;
    }
    c.max_error = std::max(c.max_error, err);
    const double ratio = err == 0 ? 0.0 : (bound > 0 ? err / bound : INFINITY);
    if (ratio > 1) {
      reject(i, ratio, bound, false,
             subject + " " + show(k) + ", reference " + show(r) +
                 (model.exact
                      ? (model.storage == DType::F32 ? std::string(" (exact mode: must be equal)")
                                                     : " (exact mode: must equal the reference rounded to " + std::string(to_string(model.storage)) +
                                                           ", " + show(round_to(model.storage, static_cast<float>(r))) + ")")
                      : ", error " + show(err) + " > bound " + show(bound) + (model.mode == "exact" ? "" : " of " + model.mode)));
    } else {
      note(i, ratio, bound, "");
    }
  }
  c.zero_where_nonzero = zero_where_nonzero;
  c.nonzero_refs = nonzero_refs;
}

}  // namespace

Comparison compare(const std::string& name, const TensorF& got, const TensorD& ref, const ErrorModel& model, const std::string& subject) {
  if (got.shape != ref.shape) throw Error("output '" + name + "' has shape " + got.shape.str() + ", the reference " + ref.shape.str());
  if ((model.mag.numel() && model.mag.shape != ref.shape) || (model.peak.numel() && model.peak.shape != ref.shape) ||
      (!model.ieee.empty() && static_cast<int64_t>(model.ieee.size()) != ref.numel()))
    throw Error("error model of '" + name + "' has the wrong shape");
  // Chunks of elements judged apart on the host's cores (core/parallel.hpp), then joined in order:
  // counts add up, the worst element is the first with the largest ratio and the message the first
  // problem's, as one loop over every element gives.
  const Chunks ch = chunks_of(got.numel(), int64_t{1} << 16);
  std::vector<Comparison> parts(static_cast<size_t>(ch.count));
  parallel_for(ch.count, [&](int64_t k) { compare_range(name, got, ref, model, ch.begin(k), ch.end(k), parts[static_cast<size_t>(k)], subject); });
  Comparison c;
  c.elements = got.numel();
  for (const Comparison& part : parts) {
    c.mismatches += part.mismatches;
    c.nonfinite_mismatches += part.nonfinite_mismatches;
    c.unrepresentable += part.unrepresentable;
    c.zero_where_nonzero += part.zero_where_nonzero;
    c.nonzero_refs += part.nonzero_refs;
    c.max_error = std::max(c.max_error, part.max_error);
    if (part.worst_index >= 0 && (part.worst_ratio > c.worst_ratio || c.worst_index < 0)) {
      c.worst_ratio = part.worst_ratio, c.worst_index = part.worst_index;
      c.worst_got = part.worst_got, c.worst_ref = part.worst_ref, c.worst_bound = part.worst_bound;
    }
    if (c.message.empty() && !part.message.empty()) c.message = part.message, c.first_index = part.first_index, c.first_why = part.first_why;
    c.rule_mismatches += part.rule_mismatches;
    c.ieee_accepted += part.ieee_accepted;
    if (c.rule_message.empty() && !part.rule_message.empty())
      c.rule = part.rule, c.rule_message = part.rule_message, c.rule_why = part.rule_why, c.rule_index = part.rule_index;
  }
  // The message names a proper mismatch where there is one, else the first rule's.
  if (c.message.empty() && !c.rule_message.empty()) c.message = c.rule_message, c.first_index = c.rule_index, c.first_why = c.rule_why;
  const int64_t zero_where_nonzero = c.zero_where_nonzero, nonzero_refs = c.nonzero_refs;
  // More than half of the outputs that should be nonzero (at least 4 of them) are exactly zero: the
  // kernel likely computed nothing (or wrote zeros), which a loose comparison could pass.
  if (nonzero_refs >= 4 && zero_where_nonzero * 2 > nonzero_refs) {
    c.untrustworthy = true;
    c.message = "output '" + name + "' is zero in " + std::to_string(zero_where_nonzero) + " of " + std::to_string(nonzero_refs) +
                " elements where the reference is not: untrustworthy" + (c.message.empty() ? "" : "; " + c.message);
  }
  c.passed = c.mismatches == 0 && !c.untrustworthy;
  return c;
}

}  // namespace plumbline
