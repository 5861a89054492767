#include "mutants/hunt.hpp"

#include "check/generators.hpp"
#include "check/shrink.hpp"

namespace plumbline::mutants {

Hunt hunt(KernelChecker& kc, const std::string& op, int max_cases, uint64_t seed, bool shrink) {
  Hunt h;
  for (int i = 0; i < max_cases; ++i) {
    const uint64_t case_seed = seed + static_cast<uint64_t>(i);
    const Values values = values_for_case(i);
    auto shrinkable = sample_problem(op, kKernelCaseBudget, seed, i, max_cases);
    const CaseResult r = kc.run(shrinkable.value(), values, case_seed);
    ++h.cases;
    if (r.passed) continue;
    h.killed = true;
    h.cases_to_detection = i + 1;
    const Problem small = shrink ? shrink_failure(shrinkable, [&](const Problem& q) { return !kc.run(q, values, case_seed).passed; })
                                 : r.problem;
    const CaseResult rs = kc.run(small, values, case_seed);
    h.verdict = rs.verdict;
    h.message = rs.message;
    h.problem = small.line();
    h.repro = check_repro(rs, kc.user());
    break;
  }
  return h;
}

}  // namespace plumbline::mutants
