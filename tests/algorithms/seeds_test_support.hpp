#pragma once
// Shared by the tests of the seed algorithms (rank, odd-even, naive-merge, section-merge, hybrid,
// batcher-*, bitonic variants): small size sets for O(n^2) algorithms, and the checks every one
// of them repeats (stable refusal, O(n^2) size limit). Their key types: AllKeyTypes.
#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test::seeds {

// Around work-group tiles (256 / 512) and 2^k +- 1, small enough for O(n^2) on PoCL.
inline std::vector<std::size_t> small_sizes() { return {0, 1, 2, 3, 5, 17, 255, 256, 257, 511, 513, 1025, 2047}; }
inline const std::vector<dist> some_dists = {dist::uniform, dist::reverse, dist::few_unique, dist::all_equal,
                                             dist::specials};

// Every value width with value = index; stability checked when opt.stable.
inline void check_value_widths(const SortOptions& o, const std::vector<std::size_t>& sizes) {
  check_pairs<std::uint32_t, std::uint8_t>(o, {1, 2, 200, 255}, dist::few_unique);
  check_pairs<std::uint32_t, std::uint16_t>(o, sizes, dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes, dist::all_equal);
  check_pairs<float, std::uint64_t>(o, sizes, dist::specials);
  check_pairs<std::int64_t, Bytes16>(o, sizes, dist::few_unique);
  check_pairs<double, std::uint32_t>(o, sizes, dist::specials);
}

inline void expect_stable_refused(const std::string& algorithm) {
  std::vector<std::uint32_t> v = {3, 1, 2};
  auto before = v;
  try {
    sort(test_context(), std::span<std::uint32_t>(v), {.stable = true, .algorithm = algorithm});
    ADD_FAILURE() << algorithm << " accepted a stable request";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("stabl"), std::string::npos) << e.what();
  }
  EXPECT_EQ(v, before);
}

// max_n keys are accepted (sorted when sort_at_limit: costly for O(n^2)), max_n + 1 refused.
inline void expect_too_large(const std::string& algorithm, std::size_t max_n, const std::string& hint,
                             bool sort_at_limit) {
  if (sort_at_limit) {
    std::vector<std::uint32_t> ok(max_n, 7u);
    EXPECT_NO_THROW(sort(test_context(), std::span<std::uint32_t>(ok), {.algorithm = algorithm}));
  }
  std::vector<std::uint32_t> v(max_n + 1);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::uint32_t(v.size() - i);
  auto before = v;
  try {
    sort(test_context(), std::span<std::uint32_t>(v), {.algorithm = algorithm});
    ADD_FAILURE() << algorithm << " accepted " << v.size() << " keys";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported);
    EXPECT_NE(std::string(e.what()).find(hint), std::string::npos) << e.what();
  }
  EXPECT_EQ(v, before);
}

}  // namespace gpusort::test::seeds
