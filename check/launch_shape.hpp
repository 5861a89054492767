#pragma once
// How a problem's launch is shaped under a variant's plan (plans/plan.hpp): the sizes of its steps, its
// work-groups along each dimension, the attributes that its kernels loop over rather than launch over;
// and problems grown to a shape. The sanitizer pass (check/sanitizer.hpp) wants the smallest problem
// that launches two work-groups along every dimension; the stress problems of a GPU (check/stress.hpp)
// the ones that fill the device.
#include <rapidcheck.h>

#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/problem.hpp"
#include "plans/plan.hpp"

namespace plumbline {

// The global sizes of every step of v for p (empty for a step that does not run).
std::vector<std::vector<size_t>> launch_sizes(const plans::Variant& v, const Problem& p);
// The work-items of all of p's steps together.
double work_items(const plans::Variant& v, const Problem& p);

// The work-groups along each dimension of p's launch that grows with the problem and has a work-group
// size: how many such dimensions launch two or more, of how many, and the one with the fewest.
struct Crossing {
  int crossed = 0, dims = 0;
  int64_t fewest = std::numeric_limits<int64_t>::max();
  std::string where;  // the fewest's: "dimension 0 of step xgemm (cdiv(n, NWG) * NDIMC)"
  const plans::Step* step = nullptr;
  size_t dim = 0;
  bool all() const { return crossed == dims; }
};
Crossing crossing_of(const plans::Variant& v, const Problem& p);
int64_t groups_along(const plans::Variant& v, const plans::Step& step, size_t dim, const Problem& p);

// p with integer attributes grown (x2 at a time), one dimension at a time, until every dimension of
// its launch has two work-groups, each time the growth `cost` rates cheapest; nullopt where a
// dimension does not get there (by 2^14).
std::optional<Problem> grown_to_cross(const plans::Variant& v, Problem p, const std::function<double(const Problem&)>& cost);

// The integer attributes of p that no step's launch size follows (a GEMM's depth, a row's length, a
// convolution's channels): the kernels loop over them.
std::vector<std::string> loop_attributes(const plans::Variant& v, const Problem& p);

// A problem as a shrinkable one: each integer attribute toward 1 (to 1, halved, less one), so that a
// failing case built rather than drawn shrinks as a drawn one does (check/shrink.hpp).
rc::Shrinkable<Problem> shrinkable(const Problem& p);

}  // namespace plumbline
