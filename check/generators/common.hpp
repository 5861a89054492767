#pragma once
// Building blocks shared by the family generators.
#include <rapidcheck.h>

#include <functional>
#include <map>
#include <string>

#include "core/problem.hpp"
#include "core/registry.hpp"
#include "check/generators.hpp"

namespace plumbline::gen {

// One of the values, uniformly at every size (awkward values must come up early too), shrinking
// toward the first. (RapidCheck's own elementOf and weightedOneOf do not shrink the choice.)
template <class T>
rc::Gen<T> pick(std::vector<T> values) {
  return [values](const rc::Random& random, int) {
    const size_t i = static_cast<size_t>(rc::Random(random).next() % values.size());
    return rc::shrinkable::map(rc::shrinkable::shrinkRecur(i, [](size_t x) { return rc::shrink::towards<size_t>(x, 0); }),
                               [values](size_t k) { return values[k]; });
  };
}
// A value from one of the generators, chosen as pick() chooses (list one several times to weight it);
// shrinks toward the first generator, then within the chosen one.
template <class T>
rc::Gen<T> mix(std::vector<rc::Gen<T>> gens) {
  return rc::gen::join(pick(std::move(gens)));
}

// A dimension in [1, max]: mostly small, often an awkward size (primes, 41/47/55/61), often a tile
// boundary of the context (a multiple of a tile size +-1; for tiles up to max, up to 2 tiles +1 even
// past max). Shrinks toward 1.
rc::Gen<int64_t> dim(const GenContext& ctx, int64_t max);
// A dimension just past or short of a tile boundary of the context (u +- 1, 2u +- 1): for problems
// whose every dimension crosses a tile, so that a work-group's last rows, columns and depths all
// hold data (independent dim() draws seldom make m, n and k all large at once).
rc::Gen<int64_t> tile_dim(const GenContext& ctx, int64_t max);
// A small value in [lo, hi] that shrinks toward lo.
rc::Gen<int64_t> small(int64_t lo, int64_t hi);
// One of the values, shrinking toward the first.
rc::Gen<std::string> choice(const std::vector<std::string>& values);

// Halves the largest of the named attributes until the problem's FLOPs fit the budget or every
// named attribute is at its floor. `floors` gives the smallest value each may take.
using Attrs = std::map<std::string, AttrValue>;
Problem fit_budget(const std::string& op, Attrs attrs, const std::vector<std::pair<std::string, int64_t>>& shrinkable, double budget);

using GenFactory = std::function<rc::Gen<Problem>(const GenContext& ctx)>;
void add_gemm_gens(std::map<std::string, GenFactory>& g);
void add_conv_gens(std::map<std::string, GenFactory>& g);
void add_norm_gens(std::map<std::string, GenFactory>& g);
void add_softmax_gens(std::map<std::string, GenFactory>& g);
void add_elementwise_gens(std::map<std::string, GenFactory>& g);
void add_pooling_gens(std::map<std::string, GenFactory>& g);
void add_reduction_gens(std::map<std::string, GenFactory>& g);

// A backward operator draws the problems of its forward.
inline GenFactory same_as(const std::string& op, const GenFactory& f) {
  return [=](const GenContext& ctx) { return rc::gen::map(f(ctx), [op](const Problem& p) { return p.as(op); }); };
}

}  // namespace plumbline::gen
