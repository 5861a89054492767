#pragma once
// `plumbline tune`: searches a variant's tuning space (tune/space.hpp) on one device, per shape class
// of the problems given. Every candidate is checked before it is timed: first on problems drawn at its
// own tile boundaries (as `plumbline check` draws them), then on the class's problems (at a smaller
// batch when the double reference would cost too much). A candidate that fails is discarded and
// reported with its repro, never timed; one the device cannot run (a build failure, a work-group or
// local memory beyond its limits) is reported as invalid. The survivors are timed as `plumbline
// bench` times (profiling events, warm-up, median of repetitions). The search: the plan's defaults,
// then the database's entries for this device (a warm start), random candidates for most of the
// budget, then a local refinement from the best one (one define at a time to its next value).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/paired.hpp"
#include "check/kernel_check.hpp"
#include "plans/tuning.hpp"
#include "tune/space.hpp"

namespace plumbline::tune {

struct ClassResult;

struct TuneOptions {
  std::string op;
  std::vector<Problem> problems;  // of op; each tunable variant is tuned per shape class of these
  double budget_seconds = 60;     // for all variants and classes together
  int check_cases = 12;           // edge cases per candidate before it is timed
  int repetitions = 5;
  double min_time = 0.005;    // seconds of kernel time per repetition
  double check_budget = 1e8;  // FLOPs of the reference check of each class problem
  uint64_t seed = 1;
  std::vector<Defines> start;  // candidates to try first (after the defaults): known good ones
  // A winner other than the class's entry is timed again against it in this many pairs, alternating,
  // and replaces it only where the pairs show an improvement beyond confirm_threshold (bench's paired
  // verdict: the bootstrap interval of the median ratio below 1 / (1 + threshold)). 0: no confirmation.
  int confirm_pairs = 8;
  double confirm_threshold = 0.01;
  std::function<void(const std::string&)> progress;  // one line per candidate
  // Called with a class's result whenever it has a new best candidate (the search still running; only
  // for a class without a working entry, which keeps it until the confirmation) and once more when its
  // search ends: `plumbline tune` writes the entry each time, so that a run cut off by a timeout keeps
  // what it found.
  std::function<void(const ClassResult&, bool finished)> on_best;
};

struct Candidate {
  Defines defines;
  std::string status;   // timed, wrong, invalid
  std::string message;  // what was wrong (with the repro) or why it cannot run
  double seconds = 0;   // timed: the class's problems' median times, summed
};

struct ClassResult {
  std::string variant, shape_class;
  std::vector<Problem> problems;
  double flops = 0;  // of the problems together
  std::vector<Candidate> tried;
  std::optional<Candidate> best, defaults;
  std::optional<Candidate> entry;                 // the class's entry in the database before the run, as timed in it
  std::optional<bench::PairedVerdict> confirmed;  // the winner against the entry, timed again in pairs
  bool entry_kept = false;                        // no improvement shown: the entry stays
  double elapsed = 0;
  int count(const std::string& status) const;
};

std::vector<ClassResult> tune(KernelChecker& kc, const TuneOptions& o);

// Whether a winner, timed again against the class's entry in pairs, replaces it: an improvement shown.
bool replaces_entry(const bench::PairedVerdict& v);

// The database entry for a class's winner, with the evidence a reviewer reads; an entry written while
// the search went on (finished = false) says so.
plans::TuningEntry entry_for(const ClassResult& r, const std::string& op, const ocl::DeviceInfo& device, const std::string& date,
                             bool finished = true);

}  // namespace plumbline::tune
