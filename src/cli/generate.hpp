#pragma once
// Test data for `gpusort gen`: the distributions of the sorting literature.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpusort/key_type.hpp"

namespace gpusort::cli {

struct Distribution {
  enum class Kind { uniform, sorted, reverse, few_unique, all_equal, entropy, organ_pipe };
  Kind kind = Kind::uniform;
  unsigned and_count = 1;  // entropy-K: each key is the AND of K uniform random words
};

// "uniform", "sorted", "reverse", "few-unique", "all-equal", "organ-pipe", "entropy-K" (K >= 1).
std::optional<Distribution> parse_distribution(std::string_view name);

// Help text describing every distribution (one per line).
std::string distribution_help();

// Fills out[0..n) with keys of type t. Deterministic for a given (t, n, dist, seed).
// Integers: uniform over all bit patterns. Floats: uniform over all *finite* bit patterns (random
// bits whose Inf/NaN patterns are remapped to finite ones), so every magnitude from subnormals to
// the largest finite value, both signs and both zeros occur.
void generate_keys(key_type t, void* out, std::size_t n, const Distribution& dist, std::uint64_t seed);

}  // namespace gpusort::cli
