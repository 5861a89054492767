#include "bench/timed.hpp"

#include "core/error.hpp"
#include "core/registry.hpp"

namespace plumbline::bench {

TimedProblem::TimedProblem(KernelChecker& kc, const Problem& p, uint64_t seed) : kc_(kc), p_(p), plan_(ocl::find_launch_plan(p.op())) {
  if (!plan_) throw Error("operator '" + p.op() + "' has no OpenCL kernel");
  const Signature sig = signature_of(p);
  ocl::Runtime& rt = kc.runtime();
  Rng rng(seed);
  for (const auto& decl : sig.inputs) {
    in_.push_back(rt.buffer(decl.name, decl.shape.numel()));
    in_.back().upload(make_input(decl, Values::Normal, rng).data);
  }
  for (const auto& decl : sig.outputs) out_.push_back(rt.buffer(decl.name, decl.shape.numel()));
  if (plan_->scratch)
    for (int64_t size : plan_->scratch(p)) scratch_.push_back(rt.buffer("scratch" + std::to_string(scratch_.size()), size));
}

double TimedProblem::launch() {
  std::vector<ocl::GuardedBuffer*> in, out, scratch;
  for (auto& b : in_) in.push_back(&b);
  for (auto& b : out_) out.push_back(&b);
  for (auto& b : scratch_) scratch.push_back(&b);
  return ocl::launch(kc_.runtime(), p_, *plan_, kc_.program_for(*plan_), kc_.entries(), in, out, scratch);
}

CheckOnce check_once(KernelChecker& kc, const Problem& p, double flops_budget, uint64_t seed) {
  CheckOnce c;
  c.checked = p;
  for (const char* batch : {"n", "batch", "b", "m"}) {
    if (!c.checked.has(batch)) continue;
    // Halve the batch-like dimension until the reference fits the budget (bwd_data keeps n >= 1, ...).
    while (signature_of(c.checked).flops > flops_budget && c.checked.i(batch) > 1)
      c.checked = c.checked.with(batch, c.checked.i(batch) / 2);
  }
  const CaseResult r = kc.run(c.checked, Values::Normal, seed);
  c.passed = r.passed;
  if (!r.passed) c.message = r.verdict + ": " + r.message + " (repro: " + check_repro(r, kc.user()) + ")";
  return c;
}

}  // namespace plumbline::bench
