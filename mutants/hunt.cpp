#include "mutants/hunt.hpp"


namespace plumbline::mutants {

Hunt hunt(KernelChecker& kc, const std::string& op, int max_cases, uint64_t seed, bool shrink) {
  Hunt h;
  const CasePlan plan(kc.variants(op), op, max_cases, seed);
  for (int i = 0; i < max_cases; ++i) {
    const KernelCase c = plan.at(i);
    const CaseResult r = kc.run(c.problem.value(), c.values, c.seed, c.variant);
    ++h.cases;
    if (r.passed) continue;
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

}  // namespace plumbline::mutants
