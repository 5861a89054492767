#include "check/launch_shape.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <set>

#include "core/error.hpp"

namespace plumbline {

std::vector<std::vector<size_t>> launch_sizes(const plans::Variant& v, const Problem& p) {
  std::vector<std::vector<size_t>> out;
  for (const auto& st : v.steps) out.push_back(plans::step_applies(v, st, p) ? plans::dispatch(v, st, p).global : std::vector<size_t>{});
  return out;
}

double work_items(const plans::Variant& v, const Problem& p) {
  double items = 0;
  for (const auto& sizes : launch_sizes(v, p)) {
    if (sizes.empty()) continue;
    double n = 1;
    for (size_t g : sizes) n *= static_cast<double>(g);
    items += n;
  }
  return items;
}

int64_t groups_along(const plans::Variant& v, const plans::Step& st, size_t i, const Problem& p) {
  if (!plans::step_applies(v, st, p)) return 0;
  const plans::Dispatch d = plans::dispatch(v, st, p);
  return i < d.local.size() ? static_cast<int64_t>(d.global[i] / std::max<size_t>(d.local[i], 1)) : 0;
}

Crossing crossing_of(const plans::Variant& v, const Problem& p) {
  Crossing c;
  for (const auto& st : v.steps) {
    if (!plans::step_applies(v, st, p) || st.local.empty()) continue;
    for (size_t i = 0; i < st.global.size() && i < st.local.size(); ++i) {
      if (!plans::depends_on_problem(v, st.global[i])) continue;
      const int64_t groups = groups_along(v, st, i, p);
      ++c.dims;
      c.crossed += groups >= 2;
      if (groups < c.fewest)
        c.fewest = groups, c.where = "dimension " + std::to_string(i) + " of step " + st.entry + " (" + st.global[i].text() + ")", c.step = &st,
        c.dim = i;
    }
  }
  return c;
}

std::optional<Problem> grown_to_cross(const plans::Variant& v, Problem p, const std::function<double(const Problem&)>& cost) {
  for (int round = 0; round < 4; ++round) {
    const Crossing c = crossing_of(v, p);
    if (c.all()) return p;
    std::optional<Problem> best;
    double best_cost = 0;
    for (const auto& [name, value] : p.attrs()) {
      if (!std::holds_alternative<int64_t>(value)) continue;
      for (int64_t x = std::max<int64_t>(std::get<int64_t>(value), 1) * 2; x <= (int64_t{1} << 14); x *= 2) {
        try {
          const std::optional<Problem> q = plans::steer(v, p.with(name, x));
          if (!q || groups_along(v, *c.step, c.dim, *q) < 2) continue;
          if (const double k = cost(*q); !best || k < best_cost) best = q, best_cost = k;
          break;
        } catch (const Error&) {
          break;  // not a valid problem (a flag, a count that must divide another) or a launch the plan refuses
        }
      }
    }
    if (!best) return std::nullopt;
    p = *best;
  }
  return crossing_of(v, p).all() ? std::optional<Problem>(p) : std::nullopt;
}

std::vector<std::string> loop_attributes(const plans::Variant& v, const Problem& p) {
  std::vector<std::string> out;
  const auto sizes = launch_sizes(v, p);
  for (const auto& [name, value] : p.attrs()) {
    if (!std::holds_alternative<int64_t>(value)) continue;
    // Grown a little and a lot (a launch over tiles does not change within one): the launch's sizes stay.
    const int64_t x = std::get<int64_t>(value);
    bool grows = false, follows = false;
    for (const int64_t y : {x + 1, 2 * x + 1, 4 * x + 4096}) {
      try {
        const std::optional<Problem> q = plans::steer(v, p.with(name, y));
        if (!q || q->i(name) != y) continue;
        grows = grows || y == 4 * x + 4096;  // a size, not a flag or a small count
        follows = follows || launch_sizes(v, *q) != sizes;
      } catch (const Error&) {
        // not a value it takes (a flag, a choice)
      }
    }
    if (grows && !follows) out.push_back(name);
  }
  return out;
}

rc::Shrinkable<Problem> shrinkable(const Problem& p) {
  return rc::shrinkable::shrinkRecur(p, [](const Problem& q) {
    std::vector<Problem> smaller;
    for (const auto& [name, value] : q.attrs()) {
      if (!std::holds_alternative<int64_t>(value)) continue;
      const int64_t x = std::get<int64_t>(value);
      for (const int64_t y : std::set<int64_t>{1, x / 2, x - 1}) {
        if (y < 1 || y >= x) continue;
        try {
          smaller.push_back(q.with(name, y));
        } catch (const Error&) {
        }
      }
    }
    return rc::seq::fromContainer(std::move(smaller));
  });
}

}  // namespace plumbline
