#pragma once
// The one way host code splits work over threads: f(part, begin, end) for `parts` contiguous,
// nearly equal ranges of [0, n), part 0 on the calling thread. If a thread cannot be started, its
// range runs on the caller, so the work is always done. f must not throw.
#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace gpusort::core {

// Threads for n elements: one per hardware thread, each with at least min_per_thread elements.
inline std::size_t threads_for(std::size_t n, std::size_t min_per_thread) {
  const std::size_t hw = std::max(1u, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min(hw, n / std::max<std::size_t>(1, min_per_thread)));
}

// Where part t of [0, n) cut into `parts` begins (part parts begins at n).
inline std::size_t part_begin(std::size_t n, std::size_t parts, std::size_t t) {
  return n / parts * t + n % parts * t / parts;
}

template <class F>
void parallel_for(std::size_t n, std::size_t parts, F&& f) {
  parts = std::max<std::size_t>(1, parts);
  auto range = [&](std::size_t t) { f(t, part_begin(n, parts, t), part_begin(n, parts, t + 1)); };
  std::vector<std::thread> threads;
  threads.reserve(parts - 1);
  for (std::size_t t = 1; t < parts; ++t) {
    try {
      threads.emplace_back(range, t);
    } catch (...) {  // no thread: do its share here
      range(t);
    }
  }
  range(0);
  for (auto& th : threads) th.join();
}

}  // namespace gpusort::core
