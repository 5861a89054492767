#pragma once
// The flags that choose which kernels a command runs (plans/source.hpp): ours by default, a plan file,
// or a user's kernel with its launch given by flags. Shared by check, bench, eval and gate.
#include <CLI/CLI.hpp>

#include "plans/source.hpp"

namespace plumbline::apps {

inline void add_kernel_flags(CLI::App* cmd, plans::KernelSource& s) {
  cmd->add_option("--plan", s.plan_file, "a plan file of your kernels (docs/kernel-abi.md): its variants of the operator");
  cmd->add_option("--kernel-file", s.kernel_file, "your .cl file (the default ABI, or the launch given by --args/--global/--local)");
  cmd->add_option("--entry", s.entries, "its entry point(s): one per step of the default ABI, or one with --global")->delimiter(',');
  cmd->add_option("--args", s.args, "your kernel's parameters in its order: tensors, attributes, defines, expressions (e.g. m,n,k,a,b,y)");
  cmd->add_option("--global", s.global, "global size: 1-3 expressions over the attributes and defines (e.g. 'cdiv(n,TS)*8,cdiv(m,TS)*8')");
  cmd->add_option("--local", s.local, "work-group size: 1-3 expressions (default: the driver's choice)");
  cmd->add_option("--define", s.defines, "build defines NAME=VALUE, comma-separated (also usable in the expressions)")->delimiter(',');
  cmd->add_option("--dtypes", s.dtypes,
                  "the storage formats your --kernel-file takes, comma-separated: f32, f16, bf16 (default f32; docs/kernel-abi.md)")
      ->delimiter(',');
  cmd->add_option("--when", s.when,
                  "the problems your --kernel-file serves, as a plan's when line (e.g. 'ta == 0 && tb == 0'): only those are drawn");
  cmd->add_option("--variant", s.variant, "only this variant of the operator (plumbline ops --variants lists them)");
  cmd->add_option("--math", s.math,
                  "the numeric mode your kernels compute in: tf32, bf16x3, winograd(2,3), winograd(4,3); judged under that mode's derived "
                  "bound (default: exact, the float32 contract; docs/verification.md)");
  cmd->add_option("--nonfinite", s.nonfinite,
                  "which edge answers pass: limits (the reference's rules, the default) or ieee (also what IEEE arithmetic gives for the "
                  "operator's formula: padding times Inf, gelu(-Inf) as x times its gate, a sum that overflows; docs/verification.md)");
}

}  // namespace plumbline::apps
