#include "mutants/hunt.hpp"

#include "check/sanitizer.hpp"

namespace plumbline::mutants {

namespace {

template <class CaseAt>
Hunt hunt_over(KernelChecker& kc, int count, CaseAt&& at, bool shrink) {
  Hunt h;
  for (int i = 0; i < count; ++i) {
    const KernelCase c = at(i);
    if (c.detect_uninitialized) kc.runtime().detect_uninitialized(*c.detect_uninitialized);
    const CaseResult r = kc.run(c.problem.value(), c.values, c.seed, c.variant);
    ++h.cases;
    if (r.passed || r.skipped) continue;
    h.killed = true;
    h.cases_to_detection = i + 1;
    const CaseResult rs = shrink ? shrink_case(kc, c, r) : r;
    h.verdict = rs.verdict;
    h.message = rs.message;
    h.problem = rs.problem.line();
    h.repro = check_repro(rs, kc.source());
    break;
  }
  return h;
}

}  // namespace

Hunt hunt(KernelChecker& kc, const std::string& op, int max_cases, uint64_t seed, bool shrink) {
  const CasePlan plan(kc.variants(op), op, max_cases, seed);
  return hunt_over(
      kc, max_cases, [&](int i) { return plan.at(i); }, shrink);
}

Hunt hunt_sanitized(KernelChecker& kc, const std::string& op, uint64_t seed) {
  const std::vector<KernelCase> cases = sanitizer_cases(kc.variants(op), op, seed);
  return hunt_over(
      kc, static_cast<int>(cases.size()), [&](int i) { return cases[static_cast<size_t>(i)]; }, true);
}

}  // namespace plumbline::mutants
