#pragma once
// Paired comparison: a baseline kernel and a candidate timed interleaved in one process (A B, then
// B A, ...: same inputs, same queue), so that whatever the machine does to one it does to the other,
// and the verdict judged on the paired ratios candidate / baseline: their median with a bootstrap 95%
// confidence interval, against a threshold. A shared CI machine drifting by 20-40% between runs moves
// both sides of every pair, not the ratio.
#include <cstdint>
#include <string>
#include <vector>

#include "bench/batch.hpp"
#include "bench/timed.hpp"
#include "plans/source.hpp"

namespace plumbline::bench {

struct PairedVerdict {
  double ratio = 0;          // median of candidate / baseline over the pairs
  double low = 0, high = 0;  // its bootstrap 95% confidence interval
  std::string verdict;       // regression, improvement, same
  bool uncertain = false;    // the interval is wider than the threshold band: "same" means "no change shown"
  int pairs = 0;
};

// regression: the whole interval above 1 + threshold; improvement: below 1 / (1 + threshold); else
// same. Deterministic for given times and seed (the bootstrap's resamples are seeded).
PairedVerdict judge_pairs(const std::vector<double>& baseline, const std::vector<double>& candidate, double threshold, uint64_t seed = 1);

struct PairedOptions {
  std::vector<BatchEntry> problems;
  std::string devices = "all";
  plans::KernelSource candidate, baseline;
  std::string baseline_ref;  // or a revision of this tree: its kernels and tuning are the baseline
  int pairs = 15;
  double min_time = 0.02;  // seconds of kernel time per sample
  Timing timing = Timing::Launch;
  double threshold = 0.05;
  double check_budget = 3e8;
  uint64_t seed = 1;
  std::string json;
};

// Checks both kernels on every problem (a failing one is reported, never timed), then times them in
// pairs; prints one line per problem and device. Returns 1 when a pair regressed or a kernel failed.
int run_paired(const PairedOptions& o);

// The kernels of source revision `rev` of this tree (git archive of opencl/kernels and opencl/tuning
// into a temporary folder): a plan-file source for `op`'s family, with that revision's tuning database.
plans::KernelSource source_at_revision(const std::string& rev, const std::string& op);

}  // namespace plumbline::bench
