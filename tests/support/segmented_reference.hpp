#pragma once
// The reference of the segmented sorts' tests (segmented_test.cpp, segmented_cuda_test.cpp): each
// segment sorted alone by std::stable_sort under the same order rules (key_less: NaN and -0 as the
// one-array sort orders them), the shapes they run, and exact checks of keys, values and local
// indices against it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <type_traits>
#include <vector>

#include "gpusort/key_order.hpp"
#include "gpusort/segmented.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {

using Offsets = std::vector<std::uint64_t>;

inline Offsets row_offsets(std::uint64_t rows, std::uint64_t length) {
  Offsets o(rows + 1);
  for (std::uint64_t r = 0; r <= rows; ++r) o[r] = r * length;
  return o;
}

// Power-law lengths (most short, a few long, about a fifth empty), count segments.
inline Offsets power_law_offsets(std::size_t count, std::uint64_t longest, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  Offsets o{0};
  for (std::size_t s = 0; s < count; ++s) {
    const double x = u(rng);
    const std::uint64_t length = x < 0.2 ? 0 : std::uint64_t(double(longest) * std::pow(x, 6));
    o.push_back(o.back() + length);
  }
  return o;
}

// For each output position, the global index of the element the segmented stable sort puts there
// (by `less`, else key_less in order o).
template <class T, class Less = key_less<T>>
std::vector<std::uint64_t> reference_order(const std::vector<T>& keys, const Offsets& offsets, order o,
                                           Less less = Less{}) {
  if constexpr (std::is_same_v<Less, key_less<T>>) less = key_less<T>{o};
  std::vector<std::uint64_t> at(keys.size());
  std::iota(at.begin(), at.end(), std::uint64_t(0));
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    std::stable_sort(at.begin() + offsets[s], at.begin() + offsets[s + 1],
                     [&](std::uint64_t a, std::uint64_t b) { return less(keys[a], keys[b]); });
  return at;
}

// The segment each position lies in.
inline std::vector<std::uint64_t> segment_of(const Offsets& offsets) {
  std::vector<std::uint64_t> seg(offsets.back());
  for (std::size_t s = 0; s + 1 < offsets.size(); ++s)
    for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i) seg[i] = s;
  return seg;
}

template <class T>
::testing::AssertionResult keys_like_reference(const std::vector<T>& input, const std::vector<std::uint64_t>& ref,
                                                const std::vector<T>& got) {
  if (got.size() != ref.size()) return ::testing::AssertionFailure() << "size changed";
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (!same_bits(got[i], input[ref[i]]))
      return ::testing::AssertionFailure() << "key at " << i << " differs from the segment's stable sort";
  return ::testing::AssertionSuccess();
}

template <class V>
::testing::AssertionResult values_like_reference(const std::vector<std::uint64_t>& ref, const std::vector<V>& got,
                                                  const Offsets* local_to = nullptr) {
  const auto seg = local_to ? segment_of(*local_to) : std::vector<std::uint64_t>{};
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const std::uint64_t want = local_to ? ref[i] - (*local_to)[seg[i]] : ref[i];
    if (value_index(got[i]) != want)
      return ::testing::AssertionFailure() << (local_to ? "local index" : "value") << " at " << i << " is "
                                           << value_index(got[i]) << ", want " << want;
  }
  return ::testing::AssertionSuccess();
}

// The Segments of `offsets` as the caller gives them: uniform rows, or host offsets of width O.
template <class O>
struct HostOffsets {
  std::vector<O> data;
  explicit HostOffsets(const Offsets& o) : data(o.begin(), o.end()) {}
  Segments segments() { return Segments::offsets(std::span<O>(data)); }
};

}  // namespace gpusort::test
