// The public API: host spans, pairs, device-resident arrays, errors that leave data unchanged.
#include <set>

#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

TEST(Api, EmptyAndSingleElement) {
  std::vector<std::uint32_t> empty;
  EXPECT_NO_THROW(sort(test_context(), std::span<std::uint32_t>(empty)));
  std::vector<double> one = {-0.0};
  sort(test_context(), std::span<double>(one), {.order = order::descending});
  EXPECT_TRUE(std::signbit(one[0]));
}

TEST(Api, AlgorithmsAreListed) {
  auto list = algorithms();
  ASSERT_FALSE(list.empty());
  bool has_bitonic = false;
  for (const auto& a : list) {
    EXPECT_FALSE(a.description.empty()) << a.name;
    has_bitonic |= a.name == "bitonic";
  }
  EXPECT_TRUE(has_bitonic);
}

// The properties the benchmark and `gpusort algorithms` read, instead of the descriptions' text.
TEST(Api, AlgorithmsCarryTheirProperties) {
  const std::set<std::string> complexities = {"n log n", "n log^2 n", "n^2", "n*k/8"};
  const std::set<std::string> places = {"device", "device+host", "host"};
  for (const auto& a : algorithms()) {
    EXPECT_TRUE(complexities.count(a.complexity)) << a.name << ": " << a.complexity;
    EXPECT_TRUE(places.count(a.runs_on)) << a.name << ": " << a.runs_on;
    if (a.name == "rank" || a.name == "odd-even") EXPECT_EQ(a.complexity, "n^2") << a.name;
    if (a.name == "radix") EXPECT_EQ(a.complexity, "n*k/8");
    if (a.name == "hybrid") EXPECT_EQ(a.runs_on, "device+host");
    if (a.name.rfind("batcher", 0) == 0) EXPECT_EQ(a.runs_on, "host") << a.name;
  }
}

TEST(Api, DefaultSortIsCorrect) {
  auto input = make_keys<float>(10000, dist::specials, fresh_seed());
  auto out = input;
  auto report = sort(test_context(), std::span<float>(out));
  EXPECT_FALSE(report.algorithm.empty());
  EXPECT_EQ(report.device, test_context().device().id);
  EXPECT_TRUE(keys_sorted_like_reference(input, out, order::ascending, false));
}

TEST(Api, UnknownAlgorithmLeavesDataUnchanged) {
  std::vector<std::int32_t> v = {5, -1, 3};
  auto before = v;
  try {
    sort(test_context(), std::span<std::int32_t>(v), {.algorithm = "no-such-sort"});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("bitonic"), std::string::npos) << "error should list known names: " << e.what();
  }
  EXPECT_EQ(v, before);
}

TEST(Api, PairsLengthMismatchIsAnError) {
  std::vector<std::uint32_t> k = {1, 2, 3};
  std::vector<std::uint32_t> v = {1, 2};
  EXPECT_THROW(sort_pairs(test_context(), std::span<std::uint32_t>(k), std::span<std::uint32_t>(v)), Error);
}

TEST(Api, UnsupportedValueWidthIsAnError) {
  std::vector<std::uint32_t> k = {3, 2, 1};
  struct Three {
    unsigned char b[3];
  };
  std::vector<Three> v(3);
  try {
    sort_pairs(test_context(), std::span<std::uint32_t>(k), std::span<Three>(v));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
  }
  EXPECT_EQ(k, (std::vector<std::uint32_t>{3, 2, 1}));
}

TEST(Api, DeviceArrayRoundTrip) {
  auto input = make_keys<std::int64_t>(7777, dist::uniform, fresh_seed());
  std::vector<std::uint32_t> idx(input.size());
  std::iota(idx.begin(), idx.end(), 0u);
  DeviceArray<std::int64_t> dkeys(test_context(), std::span<const std::int64_t>(input));
  DeviceArray<std::uint32_t> dvals(test_context(), std::span<const std::uint32_t>(idx));
  sort_pairs(test_context(), dkeys, dvals, {.order = order::descending});
  std::vector<std::int64_t> keys(input.size());
  std::vector<std::uint32_t> vals(input.size());
  dkeys.download(std::span<std::int64_t>(keys));
  dvals.download(std::span<std::uint32_t>(vals));
  EXPECT_TRUE(pairs_sorted_like_reference(input, keys, vals, order::descending, false));
}

TEST(Api, FloatRules) {
  // -0.0 == +0.0 (either may come first: unstable), NaN greatest with payload kept, descending reverses.
  std::vector<float> v = {1.0f, std::bit_cast<float>(0xFFC00001u), -0.0f, 0.0f, -INFINITY, INFINITY,
                          std::bit_cast<float>(0x7FC00042u), -2.5f};
  auto asc = v;
  sort(test_context(), std::span<float>(asc));
  EXPECT_EQ(asc[0], -INFINITY);
  EXPECT_EQ(asc[1], -2.5f);
  EXPECT_EQ(asc[2], 0.0f);
  EXPECT_EQ(asc[3], 0.0f);
  EXPECT_EQ(asc[5], INFINITY);
  std::vector<std::uint32_t> nan_bits = {std::bit_cast<std::uint32_t>(asc[6]), std::bit_cast<std::uint32_t>(asc[7])};
  std::sort(nan_bits.begin(), nan_bits.end());
  EXPECT_EQ(nan_bits, (std::vector<std::uint32_t>{0x7FC00042u, 0xFFC00001u}));
  auto desc = v;
  sort(test_context(), std::span<float>(desc), {.order = order::descending});
  EXPECT_TRUE(std::isnan(desc[0]) && std::isnan(desc[1]));
  EXPECT_EQ(desc[2], INFINITY);
  EXPECT_EQ(desc[7], -INFINITY);
}

}  // namespace
}  // namespace gpusort::test
