// Independent pieces of a host computation (a reference's rows, an error model's rows, a comparison's
// elements) over the host's cores. Each piece is computed as it would be alone, and pieces write
// disjoint outputs, so results are the same bits as a serial loop's whatever the number of threads.
// A full check of a large problem (4096 x 32000 logits: tens of seconds on one core) spends most of
// its time here.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace plumbline {

namespace detail {
inline thread_local bool in_parallel_region = false;  // nested calls run serially: no threads of threads
}

// Runs f(c) for every c in [0, count), on up to the host's hardware threads (at most max_threads, where
// given) when count > 1 and not already inside parallel_for (check/sampling.cpp's units call references
// that call it: those run serially inside). Where
// pieces throw, the exception of the lowest-numbered one is rethrown after every thread has stopped:
// pieces are taken in order and every piece below a failing one runs to its end, so that is the
// exception a serial loop would have thrown first (the same message whatever the threads).
template <class F>
void parallel_for(int64_t count, F&& f, int64_t max_threads = 0) {
  int64_t threads = std::min<int64_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  if (max_threads > 0) threads = std::min(threads, max_threads);
  if (threads <= 1 || detail::in_parallel_region) {
    for (int64_t c = 0; c < count; ++c) f(c);
    return;
  }
  std::atomic<int64_t> next{0};
  std::mutex failure_mutex;
  std::exception_ptr failure;
  int64_t failed_piece = count;
  auto worker = [&] {
    detail::in_parallel_region = true;
    for (int64_t c; (c = next++) < count;) {
      try {
        f(c);
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (c < failed_piece) failed_piece = c, failure = std::current_exception();
        next = count;  // no new pieces; those running finish
      }
    }
    detail::in_parallel_region = false;
  };
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
}

// [0, n) in contiguous chunks of at least `grain` items (one chunk where n is small): chunk c is
// [begin(c), end(c)). Chunks are few and large, so that each thread's share is contiguous memory.
struct Chunks {
  int64_t n = 0, count = 1;
  int64_t begin(int64_t c) const { return n * c / count; }
  int64_t end(int64_t c) const { return n * (c + 1) / count; }
};
inline Chunks chunks_of(int64_t n, int64_t grain) {
  const int64_t threads = std::max(1u, std::thread::hardware_concurrency());
  return Chunks{n, std::clamp<int64_t>(n / std::max<int64_t>(grain, 1), 1, 4 * threads)};
}

// f(begin, end) over ranges that cover [0, n): rows of `cost` items each, at least 2^16 items of work a
// range (a range's scratch is allocated once for its rows).
template <class F>
void parallel_row_ranges(int64_t n, int64_t cost, F&& f) {
  const Chunks ch = chunks_of(n, (int64_t{1} << 16) / std::max<int64_t>(cost, 1) + 1);
  parallel_for(ch.count, [&](int64_t c) { f(ch.begin(c), ch.end(c)); });
}

// f(i) for every i in [0, n), as parallel_row_ranges.
template <class F>
void parallel_rows(int64_t n, int64_t cost, F&& f) {
  parallel_row_ranges(n, cost, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) f(i);
  });
}

}  // namespace plumbline
