#pragma once
// Greedy shrinking outside a RapidCheck property, as RapidCheck does inside one: take the first
// smaller candidate that still fails, repeat until none does.
#include <rapidcheck.h>

#include <chrono>

namespace plumbline {

// Stops after max_seconds too (then the smallest failing value found so far): a GPU's stress problem
// costs seconds a candidate, and its check process is watched for progress.
template <class T, class Fails>
T shrink_failure(rc::Shrinkable<T> failing, Fails&& fails, int max_steps = 500, double max_seconds = 1e30) {
  const auto start = std::chrono::steady_clock::now();
  auto out_of_time = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > max_seconds; };
  for (int step = 0; step < max_steps && !out_of_time(); ++step) {
    bool progressed = false;
    auto candidates = failing.shrinks();
    while (auto next = candidates.next()) {
      if (out_of_time()) break;
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
