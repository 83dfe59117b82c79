#pragma once
// The top-k reference positions (gpusort/topk.hpp's contract): each row stably sorted by key_less in
// the order (largest: descending), its first k taken. Free of the test framework, so that the tests
// (support/topk_reference.hpp) and gpusort-bench topk check results against the same reference.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gpusort/key_order.hpp"

namespace gpusort::test {

// Row r's reference positions: the first k of the stable order of the row.
template <class T>
std::vector<std::uint64_t> topk_reference(const std::vector<T>& keys, std::uint64_t length, std::uint64_t r,
                                          std::uint64_t k, bool largest) {
  std::vector<std::uint64_t> p(length);
  std::iota(p.begin(), p.end(), 0);
  const T* row = keys.data() + r * length;
  const key_less<T> less{largest ? order::descending : order::ascending};
  std::stable_sort(p.begin(), p.end(), [&](std::uint64_t a, std::uint64_t b) { return less(row[a], row[b]); });
  p.resize(k);
  return p;
}

}  // namespace gpusort::test
