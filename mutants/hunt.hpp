#pragma once
// Hunting a bug: the kernel properties of `plumbline check` (the same problems and value cycle), case
// after case, until a case fails (the bug is killed: how many cases it took, the failure shrunk to a
// small problem with its repro) or the cases run out (it survived).
#include <cstdint>
#include <string>

#include "check/kernel_check.hpp"

namespace plumbline::mutants {

struct Hunt {
  bool killed = false;
  int cases = 0;               // cases run
  int cases_to_detection = 0;  // the failing case's number (1-based), when killed
  std::string verdict, message, problem, repro;
};

Hunt hunt(KernelChecker& kc, const std::string& op, int max_cases, uint64_t seed, bool shrink = true);
// The same over the sanitizer pass's cases (check/sanitizer.hpp), on kc's simulated device.
Hunt hunt_sanitized(KernelChecker& kc, const std::string& op, uint64_t seed);

}  // namespace plumbline::mutants
