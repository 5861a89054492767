#include "check/generators.hpp"

#include <algorithm>

#include "check/generators/common.hpp"
#include "core/error.hpp"

namespace plumbline {

namespace gen {

rc::Gen<int64_t> dim(const GenContext& ctx, int64_t max) {
  std::vector<int64_t> awkward, boundary;
  for (int64_t v : {1, 2, 3, 5, 7, 11, 13, 41, 47, 55, 61, 97, 127})
    if (v <= max) awkward.push_back(v);
  for (int64_t u : ctx.tiles) {
    if (u < 2 || u > max) continue;
    for (int64_t v : {u - 1, u, u + 1, 2 * u - 1, 2 * u, 2 * u + 1})
      if (std::find(boundary.begin(), boundary.end(), v) == boundary.end()) boundary.push_back(v);
  }
  std::sort(boundary.begin(), boundary.end());
  const rc::Gen<int64_t> few = small(1, std::min<int64_t>(max, 9)), odd = pick(awkward);
  if (boundary.empty()) return mix<int64_t>({few, few, few, odd, odd});
  return mix<int64_t>({few, few, few, odd, pick(boundary)});
}

rc::Gen<int64_t> tile_dim(const GenContext& ctx, int64_t max) {
  std::vector<int64_t> boundary;
  for (int64_t u : ctx.tiles)
    if (u >= 2 && u <= max)
      for (int64_t v : {u - 1, u + 1, 2 * u - 1, 2 * u + 1}) boundary.push_back(v);
  if (boundary.empty()) return dim(ctx, max);
  std::sort(boundary.begin(), boundary.end());
  boundary.erase(std::unique(boundary.begin(), boundary.end()), boundary.end());
  return pick(boundary);
}

rc::Gen<int64_t> small(int64_t lo, int64_t hi) { return rc::gen::inRange<int64_t>(lo, hi + 1); }

rc::Gen<std::string> choice(const std::vector<std::string>& values) { return pick(values); }

Problem fit_budget(const std::string& op, Attrs attrs, const std::vector<std::pair<std::string, int64_t>>& shrinkable, double budget) {
  auto build = [&] {
    std::vector<std::pair<std::string, AttrValue>> v(attrs.begin(), attrs.end());
    return Problem::make(op, v);
  };
  Problem p = build();
  while (signature_of(p).flops > budget) {
    // Halve the attribute that is largest relative to its floor; stop when all are at their floors.
    std::string pick;
    double best = 1.0;
    for (const auto& [name, floor] : shrinkable) {
      const double ratio = static_cast<double>(std::get<int64_t>(attrs[name])) / static_cast<double>(floor);
      if (ratio > best) best = ratio, pick = name;
    }
    if (pick.empty()) break;
    const int64_t floor = std::find_if(shrinkable.begin(), shrinkable.end(), [&](auto& s) { return s.first == pick; })->second;
    attrs[pick] = std::max(floor, std::get<int64_t>(attrs[pick]) / 2);
    p = build();
  }
  return p;
}

}  // namespace gen

namespace {

std::map<std::string, gen::GenFactory>& factories() {
  static std::map<std::string, gen::GenFactory> f = [] {
    std::map<std::string, gen::GenFactory> m;
    gen::add_gemm_gens(m);
    gen::add_conv_gens(m);
    gen::add_norm_gens(m);
    gen::add_softmax_gens(m);
    gen::add_elementwise_gens(m);
    gen::add_pooling_gens(m);
    gen::add_reduction_gens(m);
    return m;
  }();
  return f;
}

}  // namespace

bool has_problem_gen(const std::string& op) { return factories().count(op) > 0; }

void add_problem_gen(const std::string& op, ProblemGenFactory factory) {
  if (!factory) throw Error("the problem generator of '" + op + "' is empty");
  if (!factories().emplace(op, std::move(factory)).second) throw Error("operator '" + op + "' has a problem generator already");
}

rc::Gen<Problem> problem_gen(const std::string& op, const GenContext& ctx) {
  auto it = factories().find(op);
  if (it == factories().end()) throw Error("operator '" + op + "' has no problem generator");
  return it->second(ctx);
}

rc::Shrinkable<Problem> sample_problem(const std::string& op, const GenContext& ctx, uint64_t seed, int index, int count) {
  const int size = count > 1 ? (index * 100) / (count - 1) : 50;
  auto drawn = problem_gen(op, ctx)(rc::Random(seed + static_cast<uint64_t>(index) * 0x9e3779b97f4a7c15ull), size);
  // Named attributes (act, labels, over) sweep their choices, each held for kValueCycle cases, so that
  // every choice meets every value distribution within the first choices * 4 cases instead of by
  // chance (relu with the edge values once took over 100 cases). Shrinking keeps the choice.
  constexpr int kValueCycle = 4;
  std::vector<std::pair<std::string, std::string>> sweep;
  for (const auto& a : Registry::get().find(op).attrs)
    if (a.kind == AttrKind::Enum && a.choices.size() > 1)
      sweep.emplace_back(a.name, a.choices[static_cast<size_t>(index / kValueCycle) % a.choices.size()]);
  if (sweep.empty()) return drawn;
  return rc::shrinkable::map(std::move(drawn), [sweep](const Problem& p) {
    Problem q = p;
    for (const auto& [name, value] : sweep) q = q.with(name, value);
    return q;
  });
}

std::recursive_mutex& generator_mutex() {
  static std::recursive_mutex m;
  return m;
}

}  // namespace plumbline
