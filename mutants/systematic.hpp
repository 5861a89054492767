#pragma once
// Systematic mutants of our own kernels (opencl/kernels/): one small change at one place, of the kinds
// that make real kernel bugs:
//   operator swaps   + <-> -, * -> +, && <-> ||, == <-> !=
//   boundaries       < <-> <=, > <-> >=   (off-by-one bounds)
//   constants        an integer literal n -> n + 1, a float literal x -> 2x (0 -> 1)
//   swapped indices  get_global_id / get_local_id / get_group_id (0) <-> (1)
// Comments, preprocessor lines and attributes are not mutated. A mutant that does not build is
// stillborn (the compiler killed it) and does not count. Mutants argued equivalent to the original
// (mutants/equivalent.txt: id, then the argument) are excluded from the score.
#include <map>
#include <string>
#include <vector>

namespace plumbline::mutants {

struct Mutation {
  std::string file;   // under the kernel directory
  int line = 0;       // 1-based
  size_t column = 0;  // 0-based, of `from`
  std::string from, to, kind;
  std::string id() const;  // "norms.cl:42:17: < -> <="
};

std::vector<Mutation> enumerate_mutations(const std::string& kernel_dir);
std::string apply(const std::string& source, const Mutation& m);  // the source with the one change
// The operators whose kernels are built from `file` (directly, or through an #include).
std::vector<std::string> ops_using(const std::string& kernel_dir, const std::string& file);
// mutants/equivalent.txt: id -> argument.
std::map<std::string, std::string> load_equivalent(const std::string& path);

}  // namespace plumbline::mutants
