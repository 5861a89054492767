#pragma once
// RapidCheck generators of valid problems, one per operator. They reach the awkward shapes of
// DESIGN.md (1s, primes, work-group/tile boundaries +-1, 41/47/55/61, tall and wide, batch > 1,
// stride 2-3, ph != pw, dilation, groups including depthwise, kernels above 7x7, K % 4 != 0) and
// shrink toward small shapes and default attributes. The context's budget caps the FLOPs of one
// problem (small for finite differences, larger for kernel checks); its tile sizes come from the
// launch plan of the kernel under test (plans::tile_sizes): dimensions reach their multiples +-1.
#include <rapidcheck.h>

#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <vector>

#include "core/problem.hpp"

namespace plumbline {

// RapidCheck prints a counterexample problem as its line.
inline void showValue(const Problem& p, std::ostream& os) { os << p.line(); }

struct GenContext {
  double budget = 1e6;
  // Sizes whose multiples +-1 the dimensions reach (u-1, u, u+1, 2u-1, 2u, 2u+1); by default those
  // of 16-, 32- and 64-wide tiles.
  std::vector<int64_t> tiles{16, 32, 64};
  GenContext(double b) : budget(b) {}  // NOLINT: a budget alone is a context with the default tiles
  GenContext(double b, std::vector<int64_t> t) : budget(b), tiles(std::move(t)) {}
};

rc::Gen<Problem> problem_gen(const std::string& op, const GenContext& ctx);
bool has_problem_gen(const std::string& op);
// The generator of an added operator (check/extend.hpp; check/generators/common.hpp has the building
// blocks: dim() reaches the context's tile boundaries); Error when the operator has one already.
using ProblemGenFactory = std::function<rc::Gen<Problem>(const GenContext& ctx)>;
void add_problem_gen(const std::string& op, ProblemGenFactory factory);

// Draws case `index` of `count` outside a property (for `plumbline gradcheck --cases N`), reproducibly
// from seed; sizes sweep from small to large over the cases, as RapidCheck's own runs do. The result
// keeps its shrinks (see check/shrink.hpp).
rc::Shrinkable<Problem> sample_problem(const std::string& op, const GenContext& ctx, uint64_t seed, int index, int count);

// RapidCheck's generators are not thread-safe, and a Shrinkable's value() and shrinks run them again:
// where threads draw or shrink problems side by side (operators checked at once), each holds this.
std::recursive_mutex& generator_mutex();

}  // namespace plumbline
