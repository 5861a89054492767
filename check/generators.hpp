#pragma once
// RapidCheck generators of valid problems, one per operator. They reach the awkward shapes of
// DESIGN.md (1s, primes, work-group/tile boundaries +-1, 41/47/55/61, tall and wide, batch > 1,
// stride 2-3, ph != pw, dilation, groups including depthwise, kernels above 7x7, K % 4 != 0) and
// shrink toward small shapes and default attributes. `budget` caps the FLOPs of one problem: small
// for finite differences, larger for kernel checks.
#include <rapidcheck.h>

#include <ostream>
#include <string>

#include "core/problem.hpp"

namespace plumbline {

// RapidCheck prints a counterexample problem as its line.
inline void showValue(const Problem& p, std::ostream& os) { os << p.line(); }

rc::Gen<Problem> problem_gen(const std::string& op, double budget);
bool has_problem_gen(const std::string& op);

// Draws case `index` of `count` outside a property (for `plumbline gradcheck --cases N`), reproducibly
// from seed; sizes sweep from small to large over the cases, as RapidCheck's own runs do. The result
// keeps its shrinks (see check/shrink.hpp).
rc::Shrinkable<Problem> sample_problem(const std::string& op, double budget, uint64_t seed, int index, int count);

}  // namespace plumbline
