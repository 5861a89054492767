#include "check/function_check.hpp"

#include "core/registry.hpp"

#include <cmath>

#include "check/compare.hpp"
#include "check/error_models.hpp"
#include "check/generators.hpp"
#include "check/shrink.hpp"
#include "core/error.hpp"
#include "reference/reference.hpp"

namespace plumbline {

Values values_for_case(int i) {
  static const Values cycle[] = {Values::Integers, Values::Uniform, Values::Normal, Values::Edge};
  return cycle[i % 4];
}

CaseInputs draw_inputs(const Signature& sig, Values values, uint64_t seed) {
  Rng rng(seed);
  CaseInputs in;
  for (const auto& decl : sig.inputs) {
    in.f.push_back(make_input(decl, values, rng, sig.storage_of(decl), sig.exact_ties));
    in.d.push_back(in.f.back().convert<double>());
  }
  return in;
}

void judge_outputs(CaseResult& r, const Signature& sig, const std::vector<TensorF>& outputs, const std::vector<TensorD>& ref,
                   const std::vector<ErrorModel>& models, const std::string& subject) {
  r.passed = true;
  r.verdict = "pass";
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Comparison c = compare(sig.outputs[i].name, outputs[i], ref[i], models[i], subject);
    r.worst_ratio = std::max(r.worst_ratio, c.worst_ratio);
    r.max_error = std::max(r.max_error, c.max_error);
    r.ieee_accepted += c.ieee_accepted;
    if (!c.passed && r.passed) {
      r.passed = false;
      r.verdict = verdict_of(c);
      r.message = c.message + " (" + std::to_string(c.mismatches) + " of " + std::to_string(c.elements) + " elements off)";
    }
  }
}

void judge_case(CaseResult& r, const Problem& p, const Signature& sig, const CaseInputs& in, const std::vector<TensorF>& outputs,
                const std::vector<TensorD>& ref, const std::vector<ErrorModel>& models, bool integers, const std::string& subject) {
  judge_outputs(r, sig, outputs, ref, models, subject);
  if (r.passed) return;
  std::vector<TensorD> flushed = in.d;
  bool any = false;
  for (size_t t = 0; t < in.f.size(); ++t)
    for (size_t i = 0; i < in.f[t].data.size(); ++i) {
      const float x = in.f[t].data[i];
      if (x != 0 && std::fpclassify(x) == FP_SUBNORMAL) flushed[t].data[i] = std::copysign(0.0, x), any = true;
    }
  if (!any) return;
  const std::vector<TensorD> ref_flushed = run_reference(p, flushed);
  CaseResult again = r;
  again.worst_ratio = again.max_error = 0;
  again.ieee_accepted = 0;
  const NonfinitePolicy policy = models.empty() ? NonfinitePolicy::Limits : models.front().nonfinite;
  const NumericMode mode = models.empty() ? NumericMode{} : NumericMode::parse(models.front().mode);
  judge_outputs(again, sig, outputs, ref_flushed, error_models(p, flushed, ref_flushed, integers, policy, mode), subject);
  if (again.passed) r = again;
}

CaseResult check_function_case(const Problem& p, Values values, uint64_t seed, const OutputsFn& fn, NonfinitePolicy policy, const NumericMode& mode) {
  CaseResult r{p, "host", "function", values, seed};
  r.nonfinite = policy;
  r.math = mode.name();
  const Signature sig = signature_of(p);
  if (sig.flops > kReferenceBudget) throw Error(p.line() + ": its double reference costs more than the 2e10 FLOPs a function check runs");
  const CaseInputs in = draw_inputs(sig, values, seed);
  const std::vector<TensorD> ref = run_reference(p, in.d);
  const std::vector<ErrorModel> models = error_models(p, in.d, ref, values == Values::Integers, policy, mode);
  std::vector<TensorF> out;
  try {
    out = fn(p, in.f);
  } catch (const Error& e) {
    r.verdict = "bad-output";
    r.message = e.what();
    return r;
  }
  if (out.size() != sig.outputs.size()) {
    r.verdict = "bad-output";
    r.message = "the function returned " + std::to_string(out.size()) + " outputs; " + p.op() + " has " + std::to_string(sig.outputs.size());
    return r;
  }
  for (size_t i = 0; i < out.size(); ++i)
    if (out[i].shape != sig.outputs[i].shape) {
      r.verdict = "bad-output";
      r.message = "output '" + sig.outputs[i].name + "' has shape " + out[i].shape.str() + ", expected " + sig.outputs[i].shape.str();
      return r;
    }
  judge_case(r, p, sig, in, out, ref, models, values == Values::Integers, "result");  // a function's, not a kernel's
  return r;
}

namespace {

// p with the attribute values a mode needs, or nullopt where the problem then is invalid.
std::optional<Problem> with_fixed(const Problem& p, const NumericMode& mode) {
  try {
    Problem q = p;
    for (const auto& [name, value] : mode.fixed(p.op())) q = q.with(name, value);
    return q;
  } catch (const Error&) {
    return std::nullopt;
  }
}

// Case i's problem moved into what the mode needs: the first of the draws (from `drawn` on) that fits,
// shrinking among problems that fit.
rc::Shrinkable<Problem> fitted_to(const std::string& op, const GenContext& ctx, uint64_t seed, int i, int count, const NumericMode& mode,
                                  rc::Shrinkable<Problem> drawn) {
  for (int attempt = 0; attempt < 200; ++attempt) {
    if (attempt) drawn = sample_problem(op, ctx, seed + static_cast<uint64_t>(attempt) * 7919, i, count);
    if (const auto q = with_fixed(drawn.value(), mode))
      return rc::shrinkable::map(std::move(drawn), [mode, q = *q](const Problem& p) { return with_fixed(p, mode).value_or(q); });
  }
  throw Error("none of 200 problems drawn for " + op + " fits numeric mode " + mode.name() + " (" + mode.condition(op) + ")");
}

}  // namespace

FunctionCheck check_function(const std::string& op, const OutputsFn& fn, int cases, uint64_t seed, std::optional<Values> values,
                             std::optional<Problem> problem, const std::vector<std::string>& dtypes, NonfinitePolicy policy,
                             const NumericMode& mode) {
  Registry::get().find(op);  // an unknown operator: the error that lists the known ones
  for (const auto& d : dtypes)
    if (d != "f32" && d != "f16" && d != "bf16") throw Error("storage format '" + d + "': the formats are f32, f16 and bf16");
  FunctionCheck out;
  const GenContext ctx(kKernelCaseBudget);
  const int count = problem ? 1 : cases;
  for (int i = 0; i < count; ++i) {
    rc::Shrinkable<Problem> drawn = problem ? rc::shrinkable::just(*problem) : sample_problem(op, ctx, seed, i, count);
    if (!problem && !dtypes.empty()) {
      const std::string d = dtypes[static_cast<size_t>(i / 4) % dtypes.size()];
      drawn = rc::shrinkable::map(std::move(drawn), [d](const Problem& p) { return p.has("dtype") ? p.with("dtype", d) : p; });
    }
    if (!problem && !mode.fixed(op).empty()) drawn = fitted_to(op, ctx, seed, i, count, mode, std::move(drawn));
    const Values v = values.value_or(values_for_case(i));
    const uint64_t case_seed = problem ? seed : seed + static_cast<uint64_t>(i);
    const CaseResult r = check_function_case(drawn.value(), v, case_seed, fn, policy, mode);
    ++out.cases;
    out.worst_ratio = std::max(out.worst_ratio, r.worst_ratio);
    out.ieee_accepted += r.ieee_accepted;
    if (r.passed) continue;
    out.passed = false;
    out.original = r.problem;
    const Problem small = shrink_failure(drawn, [&](const Problem& q) { return !check_function_case(q, v, case_seed, fn, policy, mode).passed; });
    out.failure = small == r.problem ? r : check_function_case(small, v, case_seed, fn, policy, mode);
    break;
  }
  return out;
}

}  // namespace plumbline
