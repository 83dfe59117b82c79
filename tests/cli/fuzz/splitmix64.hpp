#pragma once
// SplitMix64: a tiny generator with a well-defined output for every seed, so one 64-bit number
// gives a whole fuzz case back on any machine and compiler (std::uniform_int_distribution and
// friends are not specified bit for bit, so the test does not use them).
#include <cstdint>
#include <string>
#include <vector>

namespace cli_fuzz {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, n) for n > 0 (the modulo bias is irrelevant for fuzzing).
  std::uint64_t below(std::uint64_t n) { return next() % n; }
  bool percent(unsigned p) { return below(100) < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  std::uint64_t state_;
};

inline std::string hex_seed(std::uint64_t seed) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  for (int shift = 60; shift >= 0; shift -= 4) s += digits[(seed >> shift) & 0xF];
  return s;
}

}  // namespace cli_fuzz
