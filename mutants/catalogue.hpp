#pragma once
// The bug catalogue: OpenCL kernels following docs/kernel-abi.md, each carrying one realistic bug,
// in mutants/catalogue/. Each file starts with
//   // bug: <one line>
//   // op: <operator>
//   // entries: <entry per step of the launch plan, comma-separated>
// A kernel without a `bug:` line (a seed kept for reference) is not part of the catalogue.
#include <string>
#include <vector>

#include "plans/source.hpp"

namespace plumbline::mutants {

struct CatalogueBug {
  std::string name;  // the file name without .cl
  std::string path, description, op;
  std::vector<std::string> entries;
  plans::KernelSource source() const { return {.kernel_file = path, .entries = entries}; }
};

std::vector<CatalogueBug> load_catalogue(const std::string& dir);  // Error naming a malformed header
std::string catalogue_dir();                                      // this tree's mutants/catalogue

}  // namespace plumbline::mutants
