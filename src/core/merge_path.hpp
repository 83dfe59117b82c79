#pragma once
// Merge path on the host: where the first d outputs of the stable merge of a[0..la) and b[0..lb)
// (a first on ties) split between the two inputs. The kernels' twin is kernels/merge_path.h.
#include <algorithm>
#include <cstdint>

namespace gpusort::core {

// How many of the first d merged elements come from a; the rest (d - result) come from b.
template <class T, class Less>
std::uint64_t merge_path_split(const T* a, std::uint64_t la, const T* b, std::uint64_t lb, std::uint64_t d,
                               Less less) {
  std::uint64_t lo = d > lb ? d - lb : 0, hi = std::min(d, la);
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (less(b[d - mid - 1], a[mid]))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

}  // namespace gpusort::core
