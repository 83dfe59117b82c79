#pragma once
// The partition reference (gpusort/partition.hpp): each row stably sorted by key_less ascending gives
// the key of rank kth; the row's exact layout is then its positions of keys less than that key, of
// keys equal to it, of keys greater, each run in position order (a three-way stable split on the
// host). The check tests numpy's contract first (the positions a permutation of the row, each key
// the key at its position, the key of rank kth at place kth, none greater before it, none smaller
// after it), then the exact layout.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "support/test_support.hpp"

namespace gpusort::test {

// Row r's position of rank kth in the stable ascending order.
template <class T>
std::uint64_t rank_position(const std::vector<T>& keys, std::uint64_t length, std::uint64_t r, std::uint64_t kth) {
  std::vector<std::uint64_t> p(length);
  std::iota(p.begin(), p.end(), 0);
  const T* row = keys.data() + r * length;
  const key_less<T> less{order::ascending};
  std::stable_sort(p.begin(), p.end(), [&](std::uint64_t a, std::uint64_t b) { return less(row[a], row[b]); });
  return p[kth];
}

// Row r's positions in the partition's layout around the key of rank kth.
template <class T>
std::vector<std::uint64_t> partition_layout(const std::vector<T>& keys, std::uint64_t length, std::uint64_t r,
                                            std::uint64_t kth) {
  const T* row = keys.data() + r * length;
  const T pivot = row[rank_position(keys, length, r, kth)];
  const key_less<T> less{order::ascending};
  std::vector<std::uint64_t> before, equal, after;
  for (std::uint64_t i = 0; i < length; ++i)
    (less(row[i], pivot) ? before : less(pivot, row[i]) ? after : equal).push_back(i);
  before.insert(before.end(), equal.begin(), equal.end());
  before.insert(before.end(), after.begin(), after.end());
  return before;
}

// A partition of `keys` (rows of keys.size() / rows) around rank kth: out_keys (nullptr: not
// written) and positions (nullptr: not written) against the reference.
template <class T, class I>
::testing::AssertionResult partition_like_reference(const std::vector<T>& keys, std::uint64_t rows, std::uint64_t kth,
                                                    const std::vector<T>* out_keys, const std::vector<I>* positions) {
  const std::uint64_t length = rows ? keys.size() / rows : 0;
  if ((out_keys && out_keys->size() != keys.size()) || (positions && positions->size() != keys.size()))
    return ::testing::AssertionFailure() << "the outputs do not hold the " << keys.size() << " keys";
  const key_less<T> less{order::ascending};
  for (std::uint64_t r = 0; r < rows; ++r) {
    const T* row = keys.data() + r * length;
    const auto fail = [&](std::uint64_t j) {
      return ::testing::AssertionFailure() << "row " << r << " of " << rows << " (length " << length << ", kth "
                                           << kth << "), place " << j << ": ";
    };
    const std::vector<std::uint64_t> want = partition_layout(keys, length, r, kth);
    // the keys of the output row: those written, else those the positions name
    std::vector<T> got(length);
    std::vector<bool> seen(length, false);
    for (std::uint64_t j = 0; j < length; ++j) {
      if (positions) {
        const auto p = static_cast<std::uint64_t>((*positions)[r * length + j]);
        if (p >= length) return fail(j) << "position " << p << " outside the row";
        if (seen[p]) return fail(j) << "position " << p << " twice: not a permutation";
        seen[p] = true;
        if (out_keys && !same_bits((*out_keys)[r * length + j], row[p]))
          return fail(j) << "the key is not the key at position " << p;
      }
      got[j] = out_keys ? (*out_keys)[r * length + j] : row[(*positions)[r * length + j]];
    }
    // numpy's contract
    const T pivot = row[rank_position(keys, length, r, kth)];
    if (!same_bits(got[kth], pivot)) return fail(kth) << "not the key of rank kth";
    for (std::uint64_t j = 0; j < length; ++j) {
      if (j < kth && less(pivot, got[j])) return fail(j) << "a key greater than the key of rank kth before it";
      if (j > kth && less(got[j], pivot)) return fail(j) << "a key less than the key of rank kth after it";
    }
    if (!positions) {  // keys alone: the same multiset of bit patterns
      std::vector<T> a(row, row + length), b = got;
      auto bits_less = [](const T& x, const T& y) { return std::memcmp(&x, &y, sizeof(T)) < 0; };
      std::sort(a.begin(), a.end(), bits_less);
      std::sort(b.begin(), b.end(), bits_less);
      for (std::uint64_t j = 0; j < length; ++j)
        if (!same_bits(a[j], b[j])) return fail(j) << "the keys are not the row's keys";
    }
    // the exact layout: less, equal, greater, each in position order
    for (std::uint64_t j = 0; j < length; ++j) {
      if (positions && static_cast<std::uint64_t>((*positions)[r * length + j]) != want[j])
        return fail(j) << "position " << (*positions)[r * length + j] << ", the three-way split has " << want[j];
      if (!same_bits(got[j], row[want[j]])) return fail(j) << "the key differs from the three-way split's";
    }
  }
  return ::testing::AssertionSuccess();
}

// select_kth's values (and positions where given) against the reference: row r's key of rank kth.
template <class T, class I>
::testing::AssertionResult select_kth_like_reference(const std::vector<T>& keys, std::uint64_t rows,
                                                     std::uint64_t kth, const std::vector<T>& values,
                                                     const std::vector<I>* positions) {
  const std::uint64_t length = rows ? keys.size() / rows : 0;
  if (values.size() != rows || (positions && positions->size() != rows))
    return ::testing::AssertionFailure() << "one value and position a row wanted";
  for (std::uint64_t r = 0; r < rows; ++r) {
    const std::uint64_t p = rank_position(keys, length, r, kth);
    if (!same_bits(values[r], keys[r * length + p]))
      return ::testing::AssertionFailure() << "row " << r << " (kth " << kth << "): not the key of rank kth";
    if (positions && static_cast<std::uint64_t>((*positions)[r]) != p)
      return ::testing::AssertionFailure() << "row " << r << " (kth " << kth << "): position "
                                           << (*positions)[r] << ", the stable sort has " << p;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace gpusort::test
