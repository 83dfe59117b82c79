#pragma once
// Small inputs for the fuzz cases: how many keys, what they look like, and the values that ride
// along (value i holds the index i, so the checker can see where each pair went).
#include <cstdint>
#include <vector>

#include "splitmix64.hpp"

namespace cli_fuzz {

// Mostly small counts (each case must be quick), with the edges a sort likes to get wrong.
inline std::size_t key_count(SplitMix64& rng, std::size_t max_count) {
  const std::vector<std::size_t> edges = {0, 1, 2, 3, 31, 255, 256, 257, 1023, 1024, 1025, max_count};
  const std::size_t n = rng.percent(40) ? rng.pick(edges) : rng.below(max_count + 1);
  return n > max_count ? max_count : n;
}

// n keys of `size` bytes: random bits (floats get NaNs, infinities and both zeros that way),
// few distinct values (many ties), already sorted, or reversed runs of bytes.
inline std::vector<unsigned char> key_bytes(SplitMix64& rng, std::size_t n, std::size_t size) {
  std::vector<unsigned char> b(n * size);
  const auto shape = rng.below(4);
  const std::uint64_t distinct = 1 + rng.below(8);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t v = rng.next();
    if (shape == 1) v %= distinct;
    if (shape == 2) v = i;
    if (shape == 3) v = n - i;
    for (std::size_t k = 0; k < size; ++k) b[i * size + k] = static_cast<unsigned char>(v >> (8 * (k % 8)));
  }
  return b;
}

// Value i is i, little-endian, in `width` bytes (wider values repeat a marker pattern).
inline std::vector<unsigned char> index_values(std::size_t n, std::size_t width) {
  std::vector<unsigned char> b(n * width);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < width; ++k)
      b[i * width + k] = k < 8 ? static_cast<unsigned char>(std::uint64_t(i) >> (8 * k)) : static_cast<unsigned char>(0xA5 ^ k);
  return b;
}

}  // namespace cli_fuzz
