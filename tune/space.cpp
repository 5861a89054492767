#include "tune/space.hpp"

#include <algorithm>

#include "core/error.hpp"

namespace plumbline::tune {

std::string to_string(const Defines& d) {
  std::string s;
  for (const auto& [n, v] : d) s += (s.empty() ? "" : " ") + n + "=" + v;
  return s;
}

Space::Space(const plans::Variant& v) : variant_(v) {
  if (v.tunables.empty()) throw Error("variant " + v.id() + " (" + v.where.str() + ") has nothing to tune (no 'tune' line)");
  // Every combination, odometer order.
  std::vector<size_t> at(v.tunables.size(), 0);
  for (;;) {
    Defines d;
    for (size_t i = 0; i < at.size(); ++i) d.emplace_back(v.tunables[i].first, v.tunables[i].second[at[i]]);
    ++combinations_;
    if (v.with_defines(d).unmet_requirement().empty()) valid_.push_back(d);
    size_t i = 0;
    while (i < at.size() && ++at[i] == v.tunables[i].second.size()) at[i++] = 0;
    if (i == at.size()) break;
  }
  if (valid_.empty()) throw Error("variant " + v.id() + ": no combination of its tune values meets its require lines");
}

std::vector<Defines> Space::neighbours(const Defines& d) const {
  std::vector<Defines> out;
  for (size_t i = 0; i < variant_.tunables.size(); ++i) {
    const auto& values = variant_.tunables[i].second;
    const auto pos = std::find(values.begin(), values.end(), d[i].second) - values.begin();
    for (const long step : {-1L, 1L}) {
      const long j = pos + step;
      if (j < 0 || j >= static_cast<long>(values.size())) continue;
      Defines n = d;
      n[i].second = values[static_cast<size_t>(j)];
      if (contains(n)) out.push_back(n);
    }
  }
  return out;
}

Defines Space::defaults() const {
  Defines d;
  for (const auto& [name, values] : variant_.tunables) d.emplace_back(name, *variant_.define(name));
  return d;
}

bool Space::contains(const Defines& d) const { return std::find(valid_.begin(), valid_.end(), d) != valid_.end(); }

}  // namespace plumbline::tune
