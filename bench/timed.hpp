#pragma once
// One problem ready to time on a device: inputs uploaded once, outputs and scratch allocated once;
// launch() runs every step of the variant that serves the problem and returns the kernel time from
// the profiling events (host overhead excluded). And the check that comes before any timing.
#include <memory>
#include <string>
#include <vector>

#include "check/kernel_check.hpp"

namespace plumbline::bench {

class TimedProblem {
 public:
  // Times variant v (the one that serves p when null).
  TimedProblem(KernelChecker& kc, const Problem& p, uint64_t seed, const plans::Variant* v = nullptr);
  // with step_seconds: each step's time appended, in the plan's order (ocl::launch)
  double launch(std::vector<double>* step_seconds = nullptr);
  // `launches` launches queued back to back, waited for once: the mean seconds a launch (ocl::launch_stream).
  double launch_stream(int launches);
  // The entries of the steps that run for this problem, in order: what launch's step times belong to.
  std::vector<std::string> step_entries() const;
  const plans::Variant& variant() const { return variant_; }

 private:
  KernelChecker& kc_;
  Problem p_;
  const plans::Variant& variant_;
  std::vector<ocl::GuardedBuffer> in_, out_, scratch_;
  ocl::Buffers buffers_;
  std::vector<ocl::PreparedStep> steps_;  // bound once, at the first launch
  const std::vector<ocl::PreparedStep>& steps();
};

struct CheckOnce {
  bool passed = false;
  std::string message;  // why not
  std::string sampled;  // empty: every output element checked; else what the sample covered
};

// Checks the variant that serves p against the reference before it is timed (normal values, one
// case), at the size it is timed. A problem whose reference would cost more than `flops_budget` (the
// reference runs in double on the host) is checked on a sample of its outputs (check/sampling.hpp).
CheckOnce check_once(KernelChecker& kc, const Problem& p, double flops_budget, uint64_t seed, const plans::Variant* v = nullptr);

// How a sample is timed.
//   Launch: one launch at a time, each waited for; the sum of the steps' profiled times (START to END),
//           so the gaps between launches are not in it. The default: steps are timed apart.
//   Stream: launches queued back to back and waited for once, from the first step's START to the last
//           step's END, as CUDA events around a loop of calls time a framework's stream (PyTorch's
//           peer, bench/peers/torch_peer.py): the gaps between commands are in it and the device's
//           per-launch set-up overlaps the kernel before. Kernels shorter than the launch path itself
//           (the host's enqueue, the device's launch) measure that path.
enum class Timing { Launch, Stream };
Timing parse_timing(const std::string& s);  // "launch" or "stream"; Error naming the choices otherwise
const char* timing_name(Timing t);

// One timing sample, the mean seconds per launch. Launch: launches until `min_time` seconds of kernel
// time have passed. Stream: one launch to size the burst, then ceil(min_time / its time) launches back
// to back (at most 1e5).
double sample(TimedProblem& t, double min_time, Timing timing = Timing::Launch);

}  // namespace plumbline::bench
