#pragma once
// complex128 keys (key_type::c128, std::complex<double>) against numpy's complex order
// (numpy_complex_order.hpp): the specials every complex128 test sorts and the stable reference
// permutation they are checked against.
#include <bit>
#include <cmath>
#include <complex>
#include <numeric>
#include <vector>

#include "support/numpy_complex_order.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {

using c128 = std::complex<double>;

// Parts of every kind: NaNs of several payloads and both signs, zeros, infinities, subnormals, the
// extremes, small integers (so that real parts tie).
inline std::vector<double> special_parts() {
  std::vector<double> p;
  for (std::uint64_t b : {0x7FF8000000000000ull, 0x7FF8000000000001ull, 0xFFF8000000000005ull, 0x7FF0000000000001ull,
                          0xFFFFFFFFFFFFFFFFull, 0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
                          0x8000000000000001ull, 0x000FFFFFFFFFFFFFull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
                          0x7FEFFFFFFFFFFFFFull, 0xFFEFFFFFFFFFFFFFull})
    p.push_back(std::bit_cast<double>(b));
  for (double f : {-2.0, -1.0, 1.0, 2.0, 0.5, 1.0 + 0x1p-52}) p.push_back(f);
  return p;
}

inline std::vector<c128> special_keys() {
  std::vector<c128> keys;
  for (double re : special_parts())
    for (double im : special_parts()) keys.emplace_back(re, im);
  return keys;
}

// The stable reference permutation of `input` in order `o`, by numpy's rule.
inline std::vector<std::size_t> stable_reference(const std::vector<c128>& input, order o) {
  std::vector<std::size_t> ref(input.size());
  std::iota(ref.begin(), ref.end(), 0u);
  std::stable_sort(ref.begin(), ref.end(), [&](std::size_t a, std::size_t b) {
    return o == order::ascending ? numpy_less(input[a], input[b]) : numpy_less(input[b], input[a]);
  });
  return ref;
}

// `got` is `input` in the stable order `o`, bit for bit.
inline ::testing::AssertionResult equals_reference(const std::vector<c128>& input, const std::vector<c128>& got,
                                                   order o) {
  const auto ref = stable_reference(input, o);
  if (got.size() != input.size()) return ::testing::AssertionFailure() << "size changed";
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same_bits(got[i], input[ref[i]]))
      return ::testing::AssertionFailure() << "at " << i << ": got " << got[i] << ", want " << input[ref[i]];
  return ::testing::AssertionSuccess();
}

// Every class and tie repeated in a random order, so that stability shows bit for bit.
inline std::vector<c128> shuffled_specials(std::size_t n, std::uint64_t seed) {
  const auto base = special_keys();
  core::SplitMix64 rng{seed};
  std::vector<c128> keys;
  while (keys.size() < n) keys.push_back(base[rng.next() % base.size()]);
  return keys;
}

}  // namespace gpusort::test
