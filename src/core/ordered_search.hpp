#pragma once
// The one host-side binary search over keys sorted in gpusort's order: how many of a[0, n) come
// before the ordered key value v (ordered_bits(., o), gpusort/key_order.hpp), counting keys equal
// to v too when or_equal. Used by the run splits and the distributed cuts.
#include <cstddef>

#include "gpusort/key_order.hpp"

namespace gpusort::core {

template <class K>
using ordered_key_t = decltype(ordered_bits(K{}));

template <class K>
std::size_t ordered_bound(const K* a, std::size_t n, ordered_key_t<K> v, order o, bool or_equal) noexcept {
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    const ordered_key_t<K> m = ordered_bits(a[mid], o);
    if (or_equal ? m <= v : m < v)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace gpusort::core
