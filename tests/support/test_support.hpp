#pragma once
// Shared by all test layers: data distributions, the reference sort, and checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "core/key_generator.hpp"
#include "gpusort/gpusort.hpp"
#include "support/guard_zones.hpp"

namespace gpusort::test {

// The one list of distributions (core/key_generator.hpp) drives every typed suite.
using dist = core::Dist;
using core::all_dists;
inline std::string dist_name(dist d) { return core::distribution_name(d); }

// A fresh seed per call (from std::random_device), printed by the checks on failure.
std::uint64_t fresh_seed();

// The context every test uses: $GPUSORT_DEVICE or the default device; opened once per process.
Context& test_context();

// Keys of one distribution from the shared generator (entropy: the AND of 3 random words).
template <class T>
std::vector<T> make_keys(std::size_t n, dist d, std::uint64_t seed) {
  std::vector<T> v(n);
  core::generate_keys(v.data(), n, core::Distribution{d}, seed);
  return v;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Keys-only check: output equals the stable reference sort as a multiset of bit patterns and is
// in order. (Unstable algorithms may permute equal keys, e.g. -0.0 and +0.0, so positions of
// equal keys are compared as sorted bit patterns within each run of equal keys.)
template <class T>
::testing::AssertionResult keys_sorted_like_reference(const std::vector<T>& input, const std::vector<T>& output,
                                                       order o, bool stable) {
  std::vector<T> ref = input;
  std::stable_sort(ref.begin(), ref.end(), key_less<T>{o});
  if (output.size() != ref.size()) return ::testing::AssertionFailure() << "size changed";
  key_less<T> less{o};
  auto bits_less = [](const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) < 0; };
  for (std::size_t i = 0; i < ref.size();) {
    std::size_t j = i + 1;
    while (j < ref.size() && !less(ref[i], ref[j])) ++j;  // [i, j): one run of equal keys
    for (std::size_t k = i; k < j; ++k)
      if (less(output[k], ref[i]) || less(ref[i], output[k]))
        return ::testing::AssertionFailure() << "wrong key at index " << k << " of " << ref.size();
    if (stable) {
      for (std::size_t k = i; k < j; ++k)
        if (!same_bits(output[k], ref[k]))
          return ::testing::AssertionFailure() << "equal keys out of input order (or bits changed) at index " << k;
    } else {
      std::vector<T> a(ref.begin() + i, ref.begin() + j), b(output.begin() + i, output.begin() + j);
      std::sort(a.begin(), a.end(), bits_less);
      std::sort(b.begin(), b.end(), bits_less);
      for (std::size_t k = 0; k < a.size(); ++k)
        if (!same_bits(a[k], b[k]))
          return ::testing::AssertionFailure() << "key bits not preserved in run starting at " << i;
    }
    i = j;
  }
  return ::testing::AssertionSuccess();
}

// The index bits a value of index_values() holds.
template <class V>
std::uint64_t value_index(const V& v) {
  std::uint64_t idx = 0;
  std::memcpy(&idx, &v, std::min(sizeof(V), sizeof idx));
  if constexpr (sizeof(V) < 8) idx &= (std::uint64_t(1) << (8 * sizeof(V))) - 1;
  return idx;
}

// Pairs check for values too narrow to hold every index (1- and 2-byte values past 256 / 65536
// pairs: they hold the index's low bytes). The reference is the host's stable sort of the input
// positions by key: a stable sort must give exactly its keys and value bits; an unstable one the
// same (key bits, value) multiset within each run of equal keys.
template <class T, class V>
::testing::AssertionResult narrow_pairs_like_reference(const std::vector<T>& input, const std::vector<T>& keys,
                                                       const std::vector<V>& values, order o, bool stable) {
  key_less<T> less{o};
  const std::size_t n = input.size();
  if (keys.size() != n || values.size() != n) return ::testing::AssertionFailure() << "size changed";
  std::vector<std::size_t> ref(n);
  std::iota(ref.begin(), ref.end(), std::size_t(0));
  std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) { return less(input[a], input[b]); });
  const std::uint64_t mask = sizeof(V) < 8 ? (std::uint64_t(1) << (8 * sizeof(V))) - 1 : ~std::uint64_t(0);
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && !less(input[ref[i]], input[ref[j]])) ++j;  // [i, j): one run of equal keys
    std::vector<std::pair<std::uint64_t, std::uint64_t>> want, got;
    for (std::size_t k = i; k < j; ++k) {
      std::uint64_t wk = 0, gk = 0;
      std::memcpy(&wk, &input[ref[k]], sizeof(T));
      std::memcpy(&gk, &keys[k], sizeof(T));
      want.emplace_back(wk, ref[k] & mask);
      got.emplace_back(gk, value_index(values[k]));
    }
    if (!stable) {
      std::sort(want.begin(), want.end());
      std::sort(got.begin(), got.end());
    }
    for (std::size_t k = 0; k < want.size(); ++k)
      if (want[k] != got[k])
        return ::testing::AssertionFailure() << (stable ? "pair differs from the stable reference at "
                                                        : "pairs of the run of equal keys at ")
                                             << (stable ? i + k : i) << (stable ? "" : " differ from the reference");
    i = j;
  }
  return ::testing::AssertionSuccess();
}

// Pairs check with value = original index: the keys must be sorted, every value must carry its
// own key (a permutation, nothing lost or duplicated), and when stable, indices ascend within
// each run of equal keys. Values too narrow for every index: narrow_pairs_like_reference.
template <class T, class V>
::testing::AssertionResult pairs_sorted_like_reference(const std::vector<T>& input, const std::vector<T>& keys,
                                                        const std::vector<V>& values, order o, bool stable) {
  if (sizeof(V) < 8 && input.size() > (std::uint64_t(1) << (8 * (sizeof(V) % 8))))
    return narrow_pairs_like_reference(input, keys, values, o, stable);
  key_less<T> less{o};
  std::vector<char> seen(input.size(), 0);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    std::uint64_t idx = 0;
    std::memcpy(&idx, &values[i], std::min(sizeof(V), sizeof idx));
    if constexpr (sizeof(V) < 8) idx &= (std::uint64_t(1) << (8 * sizeof(V))) - 1;
    if (idx >= input.size() || seen[idx]) return ::testing::AssertionFailure() << "value " << idx << " lost or duplicated at " << i;
    seen[idx] = 1;
    if (!same_bits(input[idx], keys[i])) return ::testing::AssertionFailure() << "value at " << i << " no longer travels with its key";
    if (i > 0) {
      if (less(keys[i], keys[i - 1])) return ::testing::AssertionFailure() << "keys out of order at " << i;
      if (stable && !less(keys[i - 1], keys[i])) {
        std::uint64_t prev = 0;
        std::memcpy(&prev, &values[i - 1], std::min(sizeof(V), sizeof prev));
        if constexpr (sizeof(V) < 8) prev &= (std::uint64_t(1) << (8 * sizeof(V))) - 1;
        if (prev > idx) return ::testing::AssertionFailure() << "not stable at " << i;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

// Sizes around tiles and powers of two, for a tile of `tile` keys, up to max_n.
std::vector<std::size_t> interesting_sizes(std::size_t tile, std::size_t max_n, std::uint64_t seed);

// One full check of an algorithm on one key type: every size x distribution x order (keys only),
// the keys between guard zones. Returns a failure describing the first bad case.
template <class T>
void check_keys_matrix(const SortOptions& base, const std::vector<std::size_t>& sizes,
                       const std::vector<dist>& dists = std::vector<dist>(std::begin(all_dists), std::end(all_dists))) {
  for (order o : {order::ascending, order::descending}) {
    for (std::size_t n : sizes) {
      for (dist d : dists) {
        std::uint64_t seed = fresh_seed();
        auto input = make_keys<T>(n, d, seed);
        GuardedHostArray<T> output(input);
        SortOptions opt = base;
        opt.order = o;
        sort(test_context(), output.span(), opt);
        const auto where = [&](::testing::AssertionResult r) {
          return r << " (algorithm " << opt.algorithm << " n=" << n << " dist=" << dist_name(d)
                   << " order=" << (o == order::ascending ? "asc" : "desc") << " seed=" << seed << ")";
        };
        ASSERT_TRUE(where(keys_sorted_like_reference(input, output.contents(), o, opt.stable)));
        ASSERT_TRUE(where(output.guards_intact()));
      }
    }
  }
}

// Values that record each key's original position (the low bytes of the index), zero elsewhere.
template <class V>
std::vector<V> index_values(std::size_t n) {
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::memset(&values[i], 0, sizeof(V));
    std::uint64_t idx = i;
    std::memcpy(&values[i], &idx, std::min(sizeof(V), sizeof idx));
  }
  return values;
}

// Pairs with value = index: every size x order of one distribution, keys and values between guard
// zones.
template <class T, class V>
void check_pairs(const SortOptions& base, const std::vector<std::size_t>& sizes, dist d) {
  for (order o : {order::ascending, order::descending}) {
    for (std::size_t n : sizes) {
      std::uint64_t seed = fresh_seed();
      auto input = make_keys<T>(n, d, seed);
      GuardedHostArray<T> keys(input);
      GuardedHostArray<V> values(index_values<V>(n));
      SortOptions opt = base;
      opt.order = o;
      sort_pairs(test_context(), keys.span(), values.span(), opt);
      const auto where = [&](::testing::AssertionResult r) {
        return r << " (algorithm " << opt.algorithm << " n=" << n << " dist=" << dist_name(d)
                 << " value bytes=" << sizeof(V) << " order=" << (o == order::ascending ? "asc" : "desc")
                 << " seed=" << seed << ")";
      };
      ASSERT_TRUE(where(pairs_sorted_like_reference(input, keys.contents(), values.contents(), o, opt.stable)));
      ASSERT_TRUE(where(keys.guards_intact()));
      ASSERT_TRUE(where(values.guards_intact()));
    }
  }
}

struct Bytes16 {
  std::uint64_t lo, hi;
};

}  // namespace gpusort::test
