#pragma once
// The top-k reference (gpusort/topk.hpp): each row stably sorted by key_less in the order (largest:
// descending), its first k taken; and the check of a result against it. A sorted result must match
// exactly (positions, and the keys' bits at them); an unsorted one must select the same positions
// (compared as sets: the tie rule makes the set unique) with each key's bits at its position.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include "support/test_support.hpp"
#include "support/topk_reference_positions.hpp"

namespace gpusort::test {

template <class T, class I>
::testing::AssertionResult topk_like_reference(const std::vector<T>& keys, std::uint64_t rows, std::uint64_t k,
                                               bool largest, bool sorted, const std::vector<T>& values,
                                               const std::vector<I>* indices) {
  const std::uint64_t length = rows ? keys.size() / rows : 0;
  if (values.size() != rows * k) return ::testing::AssertionFailure() << "values: " << values.size() << " elements";
  for (std::uint64_t r = 0; r < rows; ++r) {
    const std::vector<std::uint64_t> ref = topk_reference(keys, length, r, k, largest);
    const T* row = keys.data() + r * length;
    const auto fail = [&](std::uint64_t j) {
      return ::testing::AssertionFailure() << "row " << r << " of " << rows << " (length " << length << ", k " << k
                                           << "), place " << j << ": ";
    };
    if (indices) {
      std::vector<std::uint64_t> got(k);
      for (std::uint64_t j = 0; j < k; ++j) {
        got[j] = static_cast<std::uint64_t>((*indices)[r * k + j]);
        if (got[j] >= length) return fail(j) << "index " << got[j] << " outside the row";
        if (!same_bits(values[r * k + j], row[got[j]])) return fail(j) << "value is not the key at index " << got[j];
      }
      if (sorted) {
        for (std::uint64_t j = 0; j < k; ++j)
          if (got[j] != ref[j]) return fail(j) << "index " << got[j] << ", reference " << ref[j];
      } else {
        std::vector<std::uint64_t> a = got, b = ref;
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        for (std::uint64_t j = 0; j < k; ++j)
          if (a[j] != b[j]) return fail(j) << "the selected positions differ from the reference's (as sets)";
      }
    } else {
      // keys alone: the same keys (bits), in order where sorted, else as a multiset of bit patterns
      std::vector<T> want(k), got(values.begin() + r * k, values.begin() + (r + 1) * k);
      for (std::uint64_t j = 0; j < k; ++j) want[j] = row[ref[j]];
      auto bits_less = [](const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) < 0; };
      if (!sorted) {
        std::sort(want.begin(), want.end(), bits_less);
        std::sort(got.begin(), got.end(), bits_less);
      }
      for (std::uint64_t j = 0; j < k; ++j)
        if (!same_bits(want[j], got[j])) return fail(j) << "key bits differ from the reference's";
    }
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpusort::test
