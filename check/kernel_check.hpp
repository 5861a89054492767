#pragma once
// One case of a kernel check: draw inputs, evaluate the reference in double, run the kernel(s) on an
// OpenCL device with poisoned outputs and guarded buffers, and compare every output (check/compare.hpp).
#include <optional>
#include <string>
#include <vector>

#include "check/compare.hpp"
#include "core/problem.hpp"
#include "core/random.hpp"
#include "opencl/launch.hpp"

namespace plumbline {

// A user's kernel file replacing ours: its entry points, one per step of the operator's launch plan.
struct UserKernel {
  std::string path;
  std::vector<std::string> entries;
};

struct CaseResult {
  Problem problem;
  std::string device;
  Values values = Values::Normal;
  uint64_t seed = 0;
  bool passed = false;
  std::string verdict;  // pass, wrong, non-finite, unwritten, out-of-bounds, input-modified, untrustworthy
  std::string message;  // the first problem, in words
  double worst_ratio = 0;
  double max_error = 0;  // largest |kernel - reference| over every output's judged elements
  double seconds = 0;    // kernel time from profiling events
};

// What one launch produced: the outputs, the kernel time, and the first memory problem (a write out
// of bounds or into an input, an output element left unwritten), with its verdict; empty when none.
struct Execution {
  std::vector<TensorF> outputs;
  double seconds = 0;
  std::string verdict, problem;
};

class KernelChecker {
 public:
  KernelChecker(ocl::Runtime& runtime, std::optional<UserKernel> user = std::nullopt);
  CaseResult run(const Problem& p, Values values, uint64_t seed);
  // Runs the operator's kernels on the given inputs (poisoned outputs, guarded buffers).
  Execution execute(const Problem& p, const std::vector<TensorF>& inputs);

  // The program that holds the plan's entries (ours, or the user's file), built once.
  const cl::Program& program_for(const ocl::LaunchPlan& plan);
  // The user's entry names ({} for ours): launch() renames the plan's steps with them.
  std::vector<std::string> entries() const { return user_ ? user_->entries : std::vector<std::string>{}; }
  ocl::Runtime& runtime() { return rt_; }
  const std::optional<UserKernel>& user() const { return user_; }
  bool user_kernel() const { return user_.has_value(); }

 private:

  ocl::Runtime& rt_;
  std::optional<UserKernel> user_;
  std::map<std::string, cl::Program> programs_;
};

// The cases of `plumbline check OP --cases N --seed S`: case i draws its problem from the operator's
// generator (problems of at most kKernelCaseBudget FLOPs: the double reference runs each) and cycles
// through the value distributions integers, uniform, normal, edge.
inline constexpr double kKernelCaseBudget = 4e6;
Values values_for_case(int i);

// The command that re-runs one case.
std::string check_repro(const CaseResult& r, const std::optional<UserKernel>& user);

}  // namespace plumbline
