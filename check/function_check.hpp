#pragma once
// One case of a check, whatever computes the outputs: draw the inputs, evaluate the reference in
// double, judge every output under its error model (check/compare.hpp). KernelChecker runs OpenCL
// kernels through it; check_function runs any function (the Python API's `plumbline.check`).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "check/error_models.hpp"
#include "core/problem.hpp"
#include "core/random.hpp"
#include "core/registry.hpp"

namespace plumbline {

struct CaseResult {
  Problem problem;
  std::string device;
  std::string variant;  // the variant that ran ("seed", "tiled", "user"; "function" for check_function)
  Values values = Values::Normal;
  uint64_t seed = 0;
  bool passed = false;
  std::string verdict;  // pass, wrong, non-finite (and, where IEEE evaluation of the formula gives the value: non-finite: limit,
                        // non-finite: padding, overflow; check/compare.hpp), unwritten, out-of-bounds, input-modified, counters-left,
                        // untrustworthy, crashed, hung, bad-output (a function's outputs of the wrong number or shape),
                        // nondeterministic (two launches differ), race, uninitialized, barrier-divergence, sanitizer
                        // (a simulator's reports: check/sanitizer.hpp), skipped
  std::string message;  // the first problem, in words
  double worst_ratio = 0;
  double max_error = 0;  // largest |kernel - reference| over every output's judged elements
  double seconds = 0;    // kernel time from profiling events
  std::string sampled;   // empty: every element checked; else what the sample covered (check/sampling.hpp)
  // Not judged at all: the device could not run the kernel (a simulator's missing instruction, its
  // compiler's refusal); message says why. Never a pass.
  bool skipped = false;
  std::string exempted;                                 // a simulator's reports the plan set aside, in words (check/sanitizer.hpp)
  bool cached = false;                                  // a simulator's clean verdict of an identical earlier case, not simulated again
  NonfinitePolicy nonfinite = NonfinitePolicy::Limits;  // the policy it was judged under
  std::string math = "exact";                           // the numeric mode it was judged in (core/numeric_mode.hpp)
  int64_t ieee_accepted = 0;                            // elements that passed under the ieee policy only
};

// Problems of at most kKernelCaseBudget FLOPs in the random cases (the double reference runs each);
// the largest problem whose full reference runs at all.
inline constexpr double kKernelCaseBudget = 4e6;
inline constexpr double kReferenceBudget = 2e10;
// Case i's value distribution: integers, uniform, normal, edge, in turn.
Values values_for_case(int i);

// The inputs of case (values, seed), in float (what a kernel gets) and the same values in double.
struct CaseInputs {
  std::vector<TensorF> f;
  std::vector<TensorD> d;
};
CaseInputs draw_inputs(const Signature& sig, Values values, uint64_t seed);

// Judges outputs against the reference under the models: fills r's verdict, message, ratios.
void judge_outputs(CaseResult& r, const Signature& sig, const std::vector<TensorF>& outputs, const std::vector<TensorD>& ref,
                   const std::vector<ErrorModel>& models, const std::string& subject = "kernel");

// judge_outputs, then, where that fails and the inputs hold float32 subnormals, again against the
// reference of the same inputs with every subnormal read as a zero of its sign: devices need not
// support float32 subnormals (OpenCL's CL_FP_DENORM is optional, and -cl-denorms-are-zero asks for
// the flush), so a kernel may read a subnormal input as zero. A pass there is a pass. (A subnormal
// input times a large weight lands far above FLT_MIN, where the bounds' floor does not reach.)
void judge_case(CaseResult& r, const Problem& p, const Signature& sig, const CaseInputs& in, const std::vector<TensorF>& outputs,
                const std::vector<TensorD>& ref, const std::vector<ErrorModel>& models, bool integers, const std::string& subject = "kernel");

// A function under test: the problem and its inputs (float32, in the signature's order) to its
// outputs (in the signature's order). It may throw; an Error is the function's fault (bad-output).
using OutputsFn = std::function<std::vector<TensorF>(const Problem&, const std::vector<TensorF>&)>;

CaseResult check_function_case(const Problem& p, Values values, uint64_t seed, const OutputsFn& fn, NonfinitePolicy policy = NonfinitePolicy::Limits,
                               const NumericMode& mode = {});

struct FunctionCheck {
  bool passed = true;
  int cases = 0;
  double worst_ratio = 0;
  int64_t ieee_accepted = 0;  // elements over every case that passed under the ieee policy only
  CaseResult failure;         // the first failing case, shrunk (when !passed)
  Problem original;           // the problem it was shrunk from
};

// Cases 0..cases-1 drawn as `plumbline check` draws them (sizes sweeping from small to large, value
// distributions in turn, seed + i per case), or the one `problem`; `values` fixes the distribution;
// `dtypes` (f32, f16, bf16) the storage formats, four cases each in turn (default: as drawn, every
// format the operator takes). Stops at the first failure and shrinks it. Error for an unknown operator
// or format. `policy`: which edge answers pass (check/compare.hpp). `mode`: the arithmetic fn declares
// (core/numeric_mode.hpp); drawn problems are moved into what it needs (winograd: 3 x 3, stride 1).
FunctionCheck check_function(const std::string& op, const OutputsFn& fn, int cases, uint64_t seed, std::optional<Values> values = std::nullopt,
                             std::optional<Problem> problem = std::nullopt, const std::vector<std::string>& dtypes = {},
                             NonfinitePolicy policy = NonfinitePolicy::Limits, const NumericMode& mode = {});

}  // namespace plumbline
