#pragma once
// One case of a kernel check: draw inputs, evaluate the reference in double, run a variant's kernels
// (plans/) on an OpenCL device with poisoned outputs and guarded buffers, and compare every output
// (check/compare.hpp).
#include <map>
#include <set>
#include <optional>
#include <string>
#include <vector>

#include "check/compare.hpp"
#include "check/function_check.hpp"
#include "check/generators.hpp"
#include "core/problem.hpp"
#include "core/random.hpp"
#include "opencl/launch.hpp"
#include "plans/source.hpp"
#include "plans/tuning.hpp"

namespace plumbline {

// What one launch produced: the outputs, the kernel time, and the first memory problem (a write out
// of bounds or into an input, an output element left unwritten), with its verdict; empty when none.
struct Execution {
  std::vector<TensorF> outputs;
  double seconds = 0;
  std::string verdict, problem;
  std::string exempted;  // a simulator's reports the plan set aside (check/sanitizer.hpp)
};

// The variants a source runs for an operator on a device: the plan's, and after each its tuned
// instances for this device (NAME@CLASS, from the tuning database) that check covers too.
struct KernelVariants {
  std::vector<plans::Variant> all;                 // what check covers
  std::vector<size_t> base;                        // the plan's variants among them, in priority order
  std::map<std::string, size_t> tuned;             // "variant@class" -> its index
  std::set<std::string> off;                       // "variant@class" passed over on this device (an `off` entry)
  std::set<std::string> other_devices;             // variants shaped for other device types (a `devices` line), passed over alike
  std::map<std::string, std::string> unavailable;  // variant -> the features it needs that this device lacks: not run at all
  std::map<std::string, std::string> borrowed;     // "variant@class" -> the device of the same architecture whose entry it took
};
KernelVariants kernel_variants(const plans::KernelSource& source, const std::string& op, const ocl::DeviceInfo& device);
// "matmul/mma needs nvidia_sm80, which pocl:0 (...) lacks ...": why k has nothing to run on device.
std::string unavailable_message(const std::string& op, const KernelVariants& k, const ocl::DeviceInfo& device);

class KernelChecker {
 public:
  explicit KernelChecker(ocl::Runtime& runtime, plans::KernelSource source = {});

  // The variants this checker runs for op, in order: the plan's, and after each of ours its tuned
  // instances for this device (NAME@CLASS, from the tuning database). check covers each.
  const std::vector<plans::Variant>& variants(const std::string& op);
  // All it knows of op's variants on this device: those variants(), the tuned, the passed over, the unavailable.
  const KernelVariants& kernels(const std::string& op);
  // The non-finite policy v's cases are judged under: --nonfinite (the source's), else v's plan line,
  // else limits (check/compare.hpp).
  NonfinitePolicy nonfinite_policy(const plans::Variant& v) const;
  // The variant that serves p: the first whose condition holds, as tuned for p's shape class on this
  // device when the database has an entry whose defines serve p (else with the plan's defines).
  const plans::Variant& select(const Problem& p);

  // One case on variant v (the selected one when null; v's condition must hold for p). A kernel that
  // faults or hangs is a failing verdict (crashed, hung); after one, faulted() holds and this
  // checker's context may be unusable: the caller starts a fresh process for the next case.
  CaseResult run(const Problem& p, Values values, uint64_t seed, const plans::Variant* v = nullptr);
  bool faulted() const { return faulted_; }
  // The watchdog's limit per kernel launch: 0 derives it from each problem's work (Runtime::watchdog_for).
  void set_timeout(double seconds) { timeout_ = seconds; }
  // Replay (on by default on GPUs): every case launches its kernels twice on the same inputs and
  // compares the outputs bit for bit ([nondeterministic] where they differ), unless the variant's plan
  // says `nondeterministic`. Never on a simulator, whose order of work-items is the same every time.
  void set_replay(bool on) { replay_ = on; }
  // Problems whose double reference costs more FLOPs than this are checked on a sample of their outputs
  // (check/sampling.hpp) where the operator can be sampled; beyond kReferenceBudget the others are refused.
  void set_reference_budget(double flops) { reference_budget_ = flops; }
  bool sampled(const Problem& p) const;

  // Before anything is allocated: every tensor against the device's largest allocation and global
  // memory, the double reference (or the sample's float copies) against the host's available memory
  // and a reference that cannot be sampled against kReferenceBudget, and
  // the launch against its kernels' parameters (the range of int arguments) and limits. Error (exit 2)
  // naming the tensor, its bytes and the limit.
  void check_fits(const Problem& p, const plans::Variant& v);
  // Runs a variant's kernels on the given inputs (poisoned outputs, guarded buffers).
  Execution execute(const Problem& p, const std::vector<TensorF>& inputs, const plans::Variant* v = nullptr);

  // The program of a variant for a storage format (its file built with its defines and the format's), built once.
  const cl::Program& program_for(const plans::Variant& v, DType dtype = DType::F32);
  ocl::Runtime& runtime() { return rt_; }
  const plans::KernelSource& source() const { return source_; }

 private:
  ocl::Runtime& rt_;
  plans::KernelSource source_;
  std::map<std::string, KernelVariants> kernels_;
  bool faulted_ = false;
  double timeout_ = 0;
  double reference_budget_;
  bool replay_ = false;
  // The replay of a case whose first launch gave `first`: false (r says why) where it fails.
  bool replayed(const Problem& p, const std::vector<TensorF>& inputs, const plans::Variant& variant, const Execution& first, CaseResult& r);
  CaseResult run_sampled(const Problem& p, Values values, uint64_t seed, const plans::Variant& variant, CaseResult r);
  // Runs the variant on the inputs; a fault or a memory problem ends the case (r says which): nullopt.
  std::optional<Execution> execute_case(const Problem& p, const std::vector<TensorF>& inputs, const plans::Variant& variant, CaseResult& r);
};

// The cases of `plumbline check OP --cases N --seed S` (problems of at most kKernelCaseBudget FLOPs:
// the double reference runs each). Case i goes to variant i % V; within a variant, its own cases j
// cycle through the value distributions (integers, uniform, normal, edge) and sweep the sizes and the
// named attributes as RapidCheck's runs do. Each problem is drawn with the variant's tile sizes and
// steered into its condition (plans::steer); shrinking keeps to problems the variant serves.
// (kReferenceBudget: beyond it, problems are sampled (check/sampling.hpp) or refused.)

struct KernelCase {
  const plans::Variant* variant = nullptr;
  rc::Shrinkable<Problem> problem;
  Values values = Values::Normal;
  uint64_t seed = 0;
  // A sanitizer pass's case (check/sanitizer.hpp) runs with the simulator's detection of uninitialized
  // values on (a small problem) or off (a problem that crosses work-groups); unset elsewhere.
  std::optional<bool> detect_uninitialized;
  // A stress case (check/stress.hpp): checked on a sample of its outputs wherever the operator can be
  // sampled, since its full reference would cost the host minutes.
  bool sample_outputs = false;
};

class CasePlan {
 public:
  CasePlan(const std::vector<plans::Variant>& variants, const std::string& op, int count, uint64_t seed, double budget = kKernelCaseBudget);
  KernelCase at(int i) const;
  // The variant case i runs on (without drawing its problem).
  const plans::Variant& variant_of(int i) const { return variants_[static_cast<size_t>(i) % variants_.size()]; }
  int count() const { return count_; }

 private:
  const std::vector<plans::Variant>& variants_;
  std::string op_;
  int count_;
  uint64_t seed_;
  double budget_;
};

// A failing case shrunk to a small problem on the same variant, values and seed.
CaseResult shrink_case(KernelChecker& kc, const KernelCase& c, const CaseResult& failed);

// The command that re-runs one case.
std::string check_repro(const CaseResult& r, const plans::KernelSource& source);

}  // namespace plumbline
