#pragma once
// Cases of the algorithm-layer tests of segmented sorts by offsets (the tile and binned bins called
// directly): what is sorted, how a case is named in a failure, and the offsets as the bins read
// them (4- or 8-byte words, placed some words into their buffer after a poison).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/test_support.hpp"

namespace gpusort::test {

enum class mode { keys, pairs, argsort };
inline const char* mode_name(mode m) { return m == mode::keys ? "keys" : m == mode::pairs ? "pairs" : "argsort"; }

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

struct OffsetsCase {
  std::vector<std::uint64_t> lengths;  // the segments' lengths, in order
  mode m;
  order o;
  bool out_of_place;
  bool wide;  // 8-byte offsets
  dist d;
};

// The segments' offsets: 0, then the running sum of the lengths.
inline std::vector<std::uint64_t> offsets_of(const std::vector<std::uint64_t>& lengths) {
  std::vector<std::uint64_t> offsets = {0};
  for (std::uint64_t l : lengths) offsets.push_back(offsets.back() + l);
  return offsets;
}

// "<count> segments, <n> keys, <mode>, <order>, <place>, <u32|u64> offsets, <details>dist <d>, seed <s>"
inline std::string describe_offsets(const OffsetsCase& c, std::size_t n, const std::string& details,
                                    std::uint64_t seed) {
  return std::to_string(c.lengths.size()) + " segments, " + std::to_string(n) + " keys, " + mode_name(c.m) + ", " +
         (c.o == order::ascending ? "asc" : "desc") + (c.out_of_place ? ", out of place" : ", in place") +
         (c.wide ? ", u64" : ", u32") + " offsets, " + details + "dist " + dist_name(c.d) + ", seed " +
         std::to_string(seed);
}

// The offsets as words of `width` bytes (4 or 8), `lead` words into the buffer; the lead words are
// poison (0xEE bytes), which a bin that ignores the byte offset would read.
inline std::vector<unsigned char> placed_offsets(const std::vector<std::uint64_t>& offsets, std::size_t width,
                                                 std::size_t lead) {
  std::vector<unsigned char> bytes((offsets.size() + lead) * width, 0xEE);
  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const std::uint32_t narrow = static_cast<std::uint32_t>(offsets[i]);
    std::memcpy(bytes.data() + (lead + i) * width, width == 8 ? static_cast<const void*>(&offsets[i]) : &narrow, width);
  }
  return bytes;
}

}  // namespace gpusort::test
