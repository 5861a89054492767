#pragma once
// The bug catalogue: OpenCL kernels following docs/kernel-abi.md, each carrying one realistic bug,
// in mutants/catalogue/. Each file starts with
//   // bug: <one line>
//   // op: <operator>
//   // entries: <entry per step of the default ABI, comma-separated>
// or, for a kernel with its own launch, instead of `entries:`
//   // plan: <a plan file beside it (docs/kernel-abi.md)>
// and, for a bug of concurrency that the sanitizer pass must kill (check/sanitizer.hpp), the verdict it
// must be killed with:
//   // sanitize: race | uninitialized | barrier-divergence | out-of-bounds
// and, for a kernel that declares a numeric mode (core/numeric_mode.hpp), whose bound must still catch
// the bug:
//   // math: tf32 | bf16x3 | winograd(2,3) | winograd(4,3)
// A kernel without a `bug:` line (a seed kept for reference) is not part of the catalogue.
#include <string>
#include <vector>

#include "plans/source.hpp"

namespace plumbline::mutants {

struct CatalogueBug {
  std::string name;  // the file name without .cl
  std::string path, description, op;
  std::vector<std::string> entries;  // on the default ABI
  std::string plan;                  // or the path of its plan file
  std::string sanitize;              // the sanitizer's verdict that kills it; empty: killed by plumbline check
  std::string math;                  // the numeric mode it is judged in (empty: exact, or its plan's)
  plans::KernelSource source() const {
    plans::KernelSource s = plan.empty() ? plans::KernelSource{.kernel_file = path, .entries = entries} : plans::KernelSource{.plan_file = plan};
    s.math = math;
    return s;
  }
};

std::vector<CatalogueBug> load_catalogue(const std::string& dir);  // Error naming a malformed header
std::string catalogue_dir();                                       // this tree's mutants/catalogue

}  // namespace plumbline::mutants
