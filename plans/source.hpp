#pragma once
// Which kernels a command runs: ours (the plans of opencl/kernels/), a user's plan file (--plan), or a
// user's one-step kernel described by flags (--kernel-file, --entry, --args, --global, --local,
// --define, --dtypes, --when). A user's kernel with only --kernel-file and --entry takes the default ABI: our `seed`
// variant's plan with its file and entry names replaced. --variant narrows to one variant; --define
// replaces defines (of our or a plan file's variants: only those they declare).
#include <string>
#include <vector>

#include "plans/plan.hpp"

namespace plumbline::plans {

struct KernelSource {
  std::string plan_file;
  std::string kernel_file;
  std::vector<std::string> entries;
  std::string args, global, local;   // as given on the command line
  std::vector<std::string> defines;  // NAME=VALUE
  std::vector<std::string> dtypes;   // --dtypes: the storage formats a --kernel-file takes (default f32)
  std::string when;                  // --when: the problems a --kernel-file serves, as a plan's `when` (default: all)
  std::string variant;
  // --nonfinite: the non-finite policy every variant is judged under ("limits", "ieee"), over what
  // their plans declare; empty: each variant's own (default limits).
  std::string nonfinite;
  // --math: the numeric mode every variant computes in (core/numeric_mode.hpp), over their plans';
  // empty: each variant's own (default exact).
  std::string math;
  // The tuning database that applies to these variants: "" is ours for our plans and none for a
  // user's; a folder applies its entries (a paired baseline from another revision brings its own).
  std::string tuning_dir;

  bool ours() const { return plan_file.empty() && kernel_file.empty(); }
  bool user() const { return !ours(); }
  // The command-line flags that recreate this source, shell-quoted ("" for ours without options).
  std::string flags() const;
  // The same flags as arguments, flag then value (a child process's command line).
  std::vector<std::string> flag_args() const;
  // For results and reports: "plumbline's own", "rb_gemm.cl", "my.plan".
  std::string describe() const;
  // Errors for flags that do not go together (--entry without --kernel-file, --plan with --kernel-file).
  void validate() const;
};

// The variants that run `op` from this source, in their order (check covers each; the first whose
// condition holds runs otherwise). Error naming the flag or plan line when they cannot be built.
std::vector<Variant> variants_for(const KernelSource& source, const std::string& op);

}  // namespace plumbline::plans
