// Run-time orders that are not strict weak orders (SortOptions::comparator): `a < b` over floats
// holding NaN, `a <= b` over keys with ties, `return 1;`, `return 0;` and an order that depends on
// both keys at random. Through every comparison sort and every merge variant, host and device
// memory, keys and pairs: the sort never writes outside its buffers (guard zones) and never
// crashes, and it either produces a permutation of its input with no adjacent pair out of the
// order, or fails with the error that names the cause and leaves the caller's data as it was.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "gpusort/device_array.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

struct BrokenOrder {
  const char* body;
  std::function<bool(float, float)> before;  // the same order on the host
};

// The bodies are kept few: each is compiled with every program it meets (about a second each on
// PoCL). The keys are multiples of 1/4 below 100 in magnitude, so the arithmetic is exact on both
// sides whatever the device contracts into fused multiply-adds.
const std::vector<BrokenOrder>& broken_orders() {
  static const std::vector<BrokenOrder> orders = {
      {"return a < b;", [](float a, float b) { return a < b; }},  // NaN is neither before nor after anything
      {"return a <= b;", [](float a, float b) { return a <= b; }},
      {"return 1;", [](float, float) { return true; }},
      {"return 0;", [](float, float) { return false; }},  // a strict weak order after all: all keys equal
      {"return fmod(a * 7.0f + b * 3.0f, 2.0f) < 1.0f;",
       [](float a, float b) { return std::fmod(a * 7.0f + b * 3.0f, 2.0f) < 1.0f; }},
  };
  return orders;
}

// Floats with many ties and about one NaN in eight.
std::vector<float> nan_keys(std::size_t n) {
  std::mt19937_64 rng(fresh_seed());
  std::vector<float> keys(n);
  for (auto& k : keys) k = rng() % 8 == 0 ? std::nanf("") : float(int(rng() % 801) - 400) / 4.0f;
  return keys;
}

std::vector<std::uint32_t> bits_of(const std::vector<float>& keys) {
  std::vector<std::uint32_t> bits(keys.size());
  std::memcpy(bits.data(), keys.data(), keys.size() * 4);
  return bits;
}

bool is_order_error(const Error& e) {
  return e.code() == errc::invalid_argument && std::string(e.what()).find("not a strict weak order") != std::string::npos;
}

// What a sort by `order` may leave in `out` (with `out_values`, the values that came with `in`'s
// keys, or empty): `in` itself after the order's error, else a permutation of the (key, value) pairs
// of `in` with no adjacent pair out of the order.
::testing::AssertionResult sorted_or_refused(const BrokenOrder& order, const std::vector<float>& in,
                                             const std::vector<float>& out, const std::vector<std::uint32_t>& in_values,
                                             const std::vector<std::uint32_t>& out_values, bool refused) {
  if (refused) {
    if (bits_of(out) != bits_of(in) || out_values != in_values)
      return ::testing::AssertionFailure() << "the order's error left the output changed";
    return ::testing::AssertionSuccess();
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> a, b;
  const auto ib = bits_of(in), ob = bits_of(out);
  for (std::size_t i = 0; i < in.size(); ++i) {
    a.emplace_back(ib[i], in_values.empty() ? 0 : in_values[i]);
    b.emplace_back(ob[i], out_values.empty() ? 0 : out_values[i]);
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) return ::testing::AssertionFailure() << "no error, but the output is not a permutation of the input";
  for (std::size_t i = 1; i < out.size(); ++i)
    if (order.before(out[i], out[i - 1]))
      return ::testing::AssertionFailure() << "no error, but keys " << i - 1 << " and " << i << " are out of order";
  return ::testing::AssertionSuccess();
}

// A host sort of keys (and, with values, their positions as values) in guarded arrays.
void check_host(const BrokenOrder& order, std::size_t n, SortOptions options, bool with_values) {
  const std::vector<float> in = nan_keys(n);
  std::vector<std::uint32_t> in_values;
  if (with_values) {
    in_values.resize(n);
    std::iota(in_values.begin(), in_values.end(), 0u);
  }
  GuardedHostArray<float> keys(in);
  GuardedHostArray<std::uint32_t> values(in_values);
  options.comparator = order.body;
  bool refused = false;
  try {
    if (with_values)
      sort_pairs(test_context(), keys.span(), values.span(), options);
    else
      sort(test_context(), keys.span(), options);
  } catch (const Error& e) {
    EXPECT_TRUE(is_order_error(e)) << e.what();
    refused = true;
  }
  const std::string what = std::string(order.body) + " algorithm=" + options.algorithm + " local=" +
                           options.local_variant + " merge=" + options.merge_variant + " n=" + std::to_string(n) +
                           (with_values ? " pairs" : " keys");
  EXPECT_TRUE(keys.guards_intact()) << what;
  EXPECT_TRUE(values.guards_intact()) << what;
  EXPECT_TRUE(sorted_or_refused(order, in, keys.contents(), in_values, with_values ? values.contents() : in_values,
                                refused))
      << what;
}

// The same in device memory: the caller's own buffers, with a guard zone after each.
void check_device(const BrokenOrder& order, std::size_t n, SortOptions options) {
  const std::vector<float> in = nan_keys(n);
  std::vector<std::uint32_t> in_values(n);
  std::iota(in_values.begin(), in_values.end(), 0u);
  DeviceBufferWithGuard keys(test_context(), in), values(test_context(), in_values);
  options.comparator = order.body;
  bool refused = false;
  try {
    sort_device(test_context(), key_type::f32, keys.buffer(), n, &values.buffer(), 4, options);
  } catch (const Error& e) {
    EXPECT_TRUE(is_order_error(e)) << e.what();
    refused = true;
  }
  const std::string what = std::string(order.body) + " device algorithm=" + options.algorithm;
  EXPECT_TRUE(keys.guard_intact("keys")) << what;
  EXPECT_TRUE(values.guard_intact("values")) << what;
  EXPECT_TRUE(sorted_or_refused(order, in, keys.contents<float>(), in_values, values.contents<std::uint32_t>(), refused))
      << what;
}

TEST(BrokenOrder, EveryMergeVariantStaysInBoundsAndSortsOrRefuses) {
  // 20001 keys: local tiles, then several global merge passes of each variant
  for (const BrokenOrder& order : broken_orders()) {
    for (const char* local : {"blocked", "merge", "bitonic", "rank", "odd-even", "bubble"})
      check_host(order, 20001, {.algorithm = "merge", .local_variant = local}, false);
    for (const char* pass : {"blocked", "path", "rank", "half", "cached", "hashed"})
      check_host(order, 20001, {.algorithm = "merge", .merge_variant = pass}, false);
  }
}

TEST(BrokenOrder, EveryOtherComparisonSortStaysInBoundsAndSortsOrRefuses) {
  for (const BrokenOrder& order : broken_orders()) {
    for (const char* algorithm : {"bitonic", "odd-even", "rank", "section-merge", "naive-merge"})
      check_host(order, 3001, {.algorithm = algorithm}, false);
    check_host(order, 3001, {.algorithm = "rank", .local_variant = "unstable"}, false);
  }
}

TEST(BrokenOrder, PairsAndDeviceMemoryAreLeftAsTheyWere) {
  for (const BrokenOrder& order : broken_orders()) {
    check_host(order, 20001, {}, true);  // the default merge sort, with values
    check_device(order, 20001, {});
    check_device(order, 3001, {.algorithm = "rank"});
  }
}

TEST(BrokenOrder, CallerTemporaryStorageHoldsTheCopyToRestore) {
  // temporary_storage_bytes counts the check's copy of the output: with exactly that much (and a
  // guard zone after it), a refused sort restores the caller's buffers and a correct one sorts
  const std::size_t n = 20001;
  for (const char* body : {"return 1;", "return isnan(b) ? !isnan(a) : a < b;"}) {
    const SortOptions options{.comparator = body};
    const std::vector<float> in = nan_keys(n);
    std::vector<std::uint32_t> in_values(n);
    std::iota(in_values.begin(), in_values.end(), 0u);
    DeviceBufferWithGuard keys(test_context(), in), values(test_context(), in_values);
    DeviceBufferWithGuard temp(test_context(), temporary_storage_bytes(test_context(), key_type::f32, n, 4, options));
    bool refused = false;
    try {
      sort_device(test_context(), key_type::f32, keys.buffer(), n, &values.buffer(), 4, options, temp.buffer());
    } catch (const Error& e) {
      EXPECT_TRUE(is_order_error(e)) << e.what();
      refused = true;
    }
    EXPECT_EQ(refused, std::string(body) == "return 1;");
    EXPECT_TRUE(temp.guard_intact("temporary storage")) << body;
    EXPECT_TRUE(keys.guard_intact("keys")) << body;
    const BrokenOrder order{body, [](float a, float b) { return std::isnan(b) ? !std::isnan(a) : a < b; }};
    EXPECT_TRUE(
        sorted_or_refused(order, in, keys.contents<float>(), in_values, values.contents<std::uint32_t>(), refused))
        << body;
  }
}

TEST(BrokenOrder, NaNAwareOrderSortsNaNLast) {
  // the README's example: a strict weak order over floats with NaN, which the check lets through
  const std::vector<float> in = nan_keys(20001);
  std::vector<float> keys = in;
  sort(test_context(), std::span<float>(keys), {.stable = true, .comparator = "return isnan(b) ? !isnan(a) : a < b;"});
  std::vector<float> ref = in;
  std::stable_sort(ref.begin(), ref.end(), [](float a, float b) { return std::isnan(b) ? !std::isnan(a) : a < b; });
  EXPECT_EQ(bits_of(keys), bits_of(ref));
  EXPECT_TRUE(std::isnan(keys.back()));
}

}  // namespace
}  // namespace gpusort::test
