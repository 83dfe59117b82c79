// Run-time orders (SortOptions::comparator): the merge algorithm compiled with a comparator given as
// text, against std::stable_sort with the same comparator on the host (both orders, keys and pairs,
// n below one tile and across merge passes, every local and merge variant that searches or
// compares; the seeds' other comparison sorts), and the errors: a comparator that does not compile
// names its own line, radix and chunked sorts refuse it.
#include <cmath>
#include <cstring>

#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

template <class K, class Less>
void check_keys(const std::string& body, Less less, std::size_t n, order o, SortOptions base = {}) {
  std::mt19937_64 rng(fresh_seed());
  std::vector<K> keys(n);
  for (auto& k : keys)  // floats: finite values with ties (NaN makes no strict weak order by magnitude)
    k = std::is_floating_point_v<K> ? static_cast<K>(double(int(rng() % 2001) - 1000) / 8.0) : static_cast<K>(rng());
  std::vector<K> ref = keys;
  if (o == order::ascending)
    std::stable_sort(ref.begin(), ref.end(), less);
  else
    std::stable_sort(ref.begin(), ref.end(), [&](K a, K b) { return less(b, a); });
  base.order = o;
  base.stable = true;
  base.comparator = body;
  sort(test_context(), std::span<K>(keys), base);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < n; ++i) wrong += std::memcmp(&keys[i], &ref[i], sizeof(K)) != 0;
  EXPECT_EQ(wrong, 0u) << body << " n=" << n << (o == order::ascending ? " asc" : " desc") << " local="
                       << base.local_variant << " merge=" << base.merge_variant;
}

bool low_byte_less(std::uint32_t a, std::uint32_t b) { return (a & 0xFFu) < (b & 0xFFu); }
constexpr const char* kLowByte = "return (a & 0xFFu) < (b & 0xFFu);";

TEST(Comparator, KeysByTheUsersOrderStableBothOrders) {
  // many ties (256 classes): stability is visible in every class
  for (std::size_t n : {std::size_t(1000), std::size_t(70001)}) {
    check_keys<std::uint32_t>(kLowByte, low_byte_less, n, order::ascending);
    check_keys<std::uint32_t>(kLowByte, low_byte_less, n, order::descending);
  }
  // a body over several lines, with a local variable; signed 64-bit keys in reverse
  check_keys<std::int64_t>("const int reversed = b < a;\n  return reversed;",
                           [](std::int64_t a, std::int64_t b) { return b < a; }, 50001, order::ascending);
  // doubles by magnitude (the typed key: a and b are double)
  check_keys<double>("return fabs(a) < fabs(b);", [](double a, double b) { return std::fabs(a) < std::fabs(b); },
                     5001, order::descending);
}

TEST(Comparator, EveryMergeVariant) {
  for (const char* local : {"merge", "bitonic", "rank", "odd-even", "bubble"})
    check_keys<std::uint32_t>(kLowByte, low_byte_less, 20001, order::ascending,
                              {.algorithm = "merge", .local_variant = local});
  for (const char* pass : {"path", "rank", "half", "cached", "hashed"})
    check_keys<std::uint32_t>(kLowByte, low_byte_less, 20001, order::ascending,
                              {.algorithm = "merge", .merge_variant = pass});
}

TEST(Comparator, TheSeedsComparisonSorts) {
  // stable ones against the stable reference; bitonic is not stable, so its keys are checked as
  // classes of the order (the low byte), which a correct unstable sort also gets right
  for (const char* algorithm : {"odd-even", "rank", "section-merge", "naive-merge"})
    check_keys<std::uint32_t>(kLowByte, low_byte_less, 3001, order::ascending, {.algorithm = algorithm});
  check_keys<std::uint32_t>(kLowByte, low_byte_less, 2000, order::descending, {.algorithm = "section-merge"});
  check_keys<std::uint32_t>(kLowByte, low_byte_less, 1500, order::descending, {.algorithm = "rank"});
  for (order o : {order::ascending, order::descending}) {
    std::mt19937_64 rng(fresh_seed());
    std::vector<std::uint32_t> keys(5000);  // not a power of two: the network skips past-the-end comparators
    for (auto& k : keys) k = std::uint32_t(rng());
    sort(test_context(), std::span<std::uint32_t>(keys), {.order = o, .algorithm = "bitonic", .comparator = kLowByte});
    std::size_t wrong = 0;
    for (std::size_t i = 1; i < keys.size(); ++i)
      wrong += o == order::ascending ? low_byte_less(keys[i], keys[i - 1]) : low_byte_less(keys[i - 1], keys[i]);
    EXPECT_EQ(wrong, 0u) << (o == order::ascending ? "asc" : "desc");
  }
  // the unstable rank variant ranks ties of the user's order (all keys of a class share a rank)
  std::vector<std::uint32_t> keys(2000);
  std::mt19937_64 rng(fresh_seed());
  for (auto& k : keys) k = std::uint32_t(rng());
  std::vector<std::uint32_t> ref = keys;
  sort(test_context(), std::span<std::uint32_t>(keys), {.algorithm = "rank", .local_variant = "unstable", .comparator = kLowByte});
  std::stable_sort(ref.begin(), ref.end(), low_byte_less);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < keys.size(); ++i) wrong += (keys[i] & 0xFFu) != (ref[i] & 0xFFu);
  EXPECT_EQ(wrong, 0u);
  std::sort(keys.begin(), keys.end());
  std::sort(ref.begin(), ref.end());
  EXPECT_EQ(keys, ref);  // nothing lost or duplicated
}

TEST(Comparator, PairsTravelWithTheirKeys) {
  // f32 keys by magnitude; values are input positions, so the stable order is fully determined
  const std::size_t n = 30001;
  std::mt19937_64 rng(fresh_seed());
  std::vector<float> keys(n);
  std::vector<std::uint32_t> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = float(int(rng() % 2001) - 1000) / 8.0f;
    values[i] = std::uint32_t(i);
  }
  std::vector<std::uint32_t> ref(values);
  std::stable_sort(ref.begin(), ref.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return std::fabs(keys[a]) < std::fabs(keys[b]); });
  sort_pairs(test_context(), std::span<float>(keys), std::span<std::uint32_t>(values),
             {.stable = true, .comparator = "return fabs(a) < fabs(b);"});
  EXPECT_EQ(values, ref);
  std::size_t torn = 0;
  for (std::size_t i = 1; i < n; ++i) torn += std::fabs(keys[i]) < std::fabs(keys[i - 1]);
  EXPECT_EQ(torn, 0u);
}

TEST(Comparator, ErrorsAreClear) {
  std::vector<std::uint32_t> keys = {3, 1, 2};
  const auto before = keys;
  // a compile error names the comparator's own line
  try {
    sort(test_context(), std::span<std::uint32_t>(keys), {.comparator = "int x = a;\nreturn a < ;"});
    ADD_FAILURE() << "a comparator that does not compile was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("comparator:2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(keys, before);
  // radix orders by the keys' bits, hybrid's host levels by the natural order: both refuse it
  for (const char* algorithm : {"radix", "hybrid", "batcher-iterative"})
    EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(keys), {.algorithm = algorithm, .comparator = kLowByte}),
                 Error)
        << algorithm;
  // a sort in chunks (here: a device budget smaller than the data) refuses it before writing
  std::vector<std::uint32_t> many(1 << 16, 7u);
  many[0] = 9;
  try {
    sort(test_context(), std::span<std::uint32_t>(many), {.comparator = kLowByte, .device_memory_limit = 150 << 10});
    ADD_FAILURE() << "a chunked sort accepted a run-time order";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported) << e.what();
  }
  EXPECT_EQ(many[0], 9u);
}

}  // namespace
}  // namespace gpusort::test
