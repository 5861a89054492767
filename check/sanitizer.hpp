#pragma once
// A launch's verdict from a device simulator's reports (opencl/oclgrind.hpp): a data race, a read of a
// value nothing wrote, a barrier not every work-item reaches, an access outside every buffer. The
// first report that the plan does not set aside gives the case its verdict ([race], [uninitialized],
// [barrier-divergence], [out-of-bounds]) with the source lines it names; a report that a step's
// `handoff` line covers (a global-memory race on that buffer, in that step's kernel) is set aside and
// said. A launch the simulator cannot carry out makes the case a skip (ocl::SimulatorCannotRun).
#include <optional>
#include <string>
#include <vector>

#include "check/kernel_check.hpp"
#include "opencl/launch.hpp"
#include "opencl/runtime.hpp"
#include "plans/plan.hpp"

namespace plumbline {

struct SanitizerVerdict {
  std::string verdict, message;  // empty where every report was set aside, or none came
  std::string exempted;          // the reports set aside, in words ("6 global-memory races on partial ... (reductions.plan:120: why)")
};

// Reads the reports of the launches since the last call and judges them. Throws SimulatorCannotRun.
SanitizerVerdict judge_sanitizer_reports(ocl::Runtime& rt, const plans::Variant& v, const ocl::Buffers& buffers);

// The problems of a sanitizer pass (`plumbline check --sanitize`), two for each variant, in one of its
// storage formats (in turn over the variants: their indexing is the same in each):
//   - the cheapest problem found (among the generator's draws within kSanitizerBudget, steered into the
//     variant's condition, each grown an attribute at a time where that crosses) on which every step
//     launches at least two work-groups along every dimension that grows with the problem, and whose
//     longest loop (the largest attribute that the launch does not follow: a GEMM's depth, a row's
//     length) passes the variant's largest tile of at most 64 (or the largest the budget allows): a race
//     between work-groups, or between one tile's iterations and the next, needs two of them; run with
//     the detection of races, divergent barriers and accesses out of bounds;
//   - the cheapest problem of all, run with the detection of uninitialized values too (Oclgrind's
//     slowest: a read of a local array before it is written needs no second work-group).
// A crossing problem costs at most kSanitizerCaseCost where one that crosses fewer dimensions does:
// `notes` gets a line for each variant whose dimensions were not all crossed, naming one.
inline constexpr double kSanitizerBudget = 1e6;
inline constexpr double kSanitizerCaseCost = 3e6;  // a case's simulated cost at most (about 3 s of Oclgrind's time)
std::vector<KernelCase> sanitizer_cases(const std::vector<plans::Variant>& variants, const std::string& op, uint64_t seed,
                                        std::vector<std::string>* notes = nullptr);

// Clean verdicts kept between runs. One simulated thread makes a simulator's reports a function of what
// it ran: the programs (device, driver, options, full source text), the launch (the variant's steps,
// arguments, NDRanges, scratch, hand-offs), the problem, its values and seed, and which detectors were
// on. A case whose key matches a clean verdict of an earlier run is not simulated again; a failing case
// always is (its shrinking and repro need the run). Kept under ocl::cache_dir()/sanitizer/ (none
// where PLUMBLINE_CACHE_DIR=off), each file named by the key's hash and holding the whole key.
std::string sanitizer_verdict_key(ocl::Runtime& rt, const plans::Variant& v, const Problem& p, Values values, uint64_t seed);
struct CleanVerdict {
  std::string exempted;  // the reports set aside, in words ("" for none)
  double worst_ratio = 0, max_error = 0, seconds = 0;
};
// The clean verdict stored under key; nullopt when none is.
std::optional<CleanVerdict> cached_clean_verdict(const std::string& key);
void store_clean_verdict(const std::string& key, const CleanVerdict& verdict);

}  // namespace plumbline
