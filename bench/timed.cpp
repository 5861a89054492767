#include "bench/timed.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/registry.hpp"

namespace plumbline::bench {

TimedProblem::TimedProblem(KernelChecker& kc, const Problem& p, uint64_t seed, const plans::Variant* v)
    : kc_(kc), p_(p), variant_(v ? *v : kc.select(p)) {
  const Signature sig = signature_of(p);
  ocl::Runtime& rt = kc.runtime();
  Rng rng(seed);
  for (const auto& decl : sig.inputs) {
    in_.push_back(rt.buffer(decl.name, decl.shape.numel(), sig.storage_of(decl)));
    in_.back().upload(make_input(decl, Values::Normal, rng, sig.storage_of(decl)).data);
  }
  for (const auto& decl : sig.outputs) out_.push_back(rt.buffer(decl.name, decl.shape.numel(), sig.storage_of(decl)));
  const std::vector<int64_t> scratch = plans::scratch_floats(variant_, p);
  for (size_t i = 0; i < scratch.size(); ++i) {
    scratch_.push_back(rt.buffer(variant_.scratch[i].name, scratch[i]));
    // Zero once: each launch leaves its counters at zero for the next (checked before timing).
    if (variant_.scratch[i].counters) scratch_.back().upload(std::vector<float>(static_cast<size_t>(scratch[i]), 0.0f));
  }
  for (auto& b : in_) buffers_.tensors[b.name()] = &b;
  for (auto& b : out_) buffers_.tensors[b.name()] = &b;
  for (auto& b : scratch_) buffers_.scratch.push_back(&b);
}

const std::vector<ocl::PreparedStep>& TimedProblem::steps() {
  if (steps_.empty()) {
    kc_.runtime().set_problem_flops(signature_of(p_).flops);
    steps_ = ocl::prepare(kc_.runtime(), p_, variant_, kc_.program_for(variant_, dtype_of(p_)), buffers_);
  }
  return steps_;
}

double TimedProblem::launch(std::vector<double>* step_seconds) { return ocl::launch(kc_.runtime(), steps(), step_seconds); }

double TimedProblem::launch_stream(int launches) { return ocl::launch_stream(kc_.runtime(), steps(), launches); }

std::vector<std::string> TimedProblem::step_entries() const {
  std::vector<std::string> entries;
  for (const auto& st : variant_.steps)
    if (plans::step_applies(variant_, st, p_)) entries.push_back(st.entry);
  return entries;
}

CheckOnce check_once(KernelChecker& kc, const Problem& p, double flops_budget, uint64_t seed, const plans::Variant* variant) {
  CheckOnce c;
  kc.set_reference_budget(flops_budget);
  const CaseResult r = kc.run(p, Values::Normal, seed, variant);
  c.passed = r.passed;
  c.sampled = r.sampled;
  if (!r.passed) c.message = r.verdict + ": " + r.message + " (repro: " + check_repro(r, kc.source()) + ")";
  return c;
}

Timing parse_timing(const std::string& s) {
  if (s == "launch") return Timing::Launch;
  if (s == "stream") return Timing::Stream;
  throw Error("unknown timing '" + s + "': give 'launch' (one launch at a time, each waited for) or 'stream' (launches back to back)");
}

const char* timing_name(Timing t) { return t == Timing::Stream ? "stream" : "launch"; }

double sample(TimedProblem& t, double min_time, Timing timing) {
  if (timing == Timing::Stream) {
    // At most 1e5 launches a burst: each is a command the driver holds until it has run.
    const double once = std::max(t.launch(), 1e-7);
    return t.launch_stream(static_cast<int>(std::min(1e5, std::ceil(min_time / once))));
  }
  double total = 0;
  int launches = 0;
  do {
    total += t.launch();
    ++launches;
  } while (total < min_time);
  return total / launches;
}

}  // namespace plumbline::bench
