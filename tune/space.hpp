#pragma once
// A variant's tuning space: every combination of its `tune` values that meets its `require` lines
// (plans/plan.hpp), and the neighbours of a combination (one define moved to the next value).
#include <cstdint>
#include <string>
#include <vector>

#include "plans/plan.hpp"

namespace plumbline::tune {

using Defines = std::vector<std::pair<std::string, std::string>>;

std::string to_string(const Defines& d);  // "MWG=128 NWG=64"

class Space {
 public:
  explicit Space(const plans::Variant& v);  // Error when the variant has nothing to tune
  const std::vector<Defines>& valid() const { return valid_; }
  size_t combinations() const { return combinations_; }  // before the requirements
  // The valid combinations one step away from d: one define at its previous or next value.
  std::vector<Defines> neighbours(const Defines& d) const;
  Defines defaults() const;  // the plan's defines for the tunables
  bool contains(const Defines& d) const;

 private:
  plans::Variant variant_;
  std::vector<Defines> valid_;
  size_t combinations_ = 0;
};

}  // namespace plumbline::tune
