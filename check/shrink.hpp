#pragma once
// Greedy shrinking outside a RapidCheck property, as RapidCheck does inside one: take the first
// smaller candidate that still fails, repeat until none does.
#include <rapidcheck.h>

namespace plumbline {

template <class T, class Fails>
T shrink_failure(rc::Shrinkable<T> failing, Fails&& fails, int max_steps = 500) {
  for (int step = 0; step < max_steps; ++step) {
    bool progressed = false;
    auto candidates = failing.shrinks();
    while (auto next = candidates.next()) {
      if (fails(next->value())) {
        failing = *next;
        progressed = true;
        break;
      }
    }
    if (!progressed) break;
  }
  return failing.value();
}

}  // namespace plumbline
