// complex128 keys with what travels with them: argsort (4- and 8-byte indices), argsort with the
// sorted keys, and values of every width, from host data (on the device and through host passes)
// and in a DeviceArray, both orders, against the stable reference permutation in numpy's complex
// order (support/complex128_reference.hpp): keys bit for bit (NaN payloads, the sign of zero), the
// indices and values exactly. Sizes from 1 to past 10^5, around the sorts' tiles and work-groups,
// on data full of ties and NaNs.
#include <numeric>
#include <string>

#include "gpusort/plan.hpp"
#include "support/complex128_reference.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Sizes around the tiles and work-groups of the sorts a pass takes, and past 10^5.
const std::vector<std::size_t> kSizes = {1, 2, 3, 31, 255, 256, 1023, 1025, 2049, 4096, 4097, 65537, 100003};

// Half the keys from the specials (every NaN class, signed zeros, ties of real parts), half from
// few unique values of the generator (long runs of equal keys).
std::vector<c128> tied_keys(std::size_t n, std::uint64_t seed) {
  std::vector<c128> keys = shuffled_specials(n, seed);
  const auto few = make_keys<c128>(n, dist::few_unique, seed + 1);
  for (std::size_t i = 1; i < n; i += 2) keys[i] = few[i];
  return keys;
}

template <class I>
::testing::AssertionResult indices_are_reference(const std::vector<c128>& input, const std::vector<I>& got, order o) {
  const auto ref = stable_reference(input, o);
  for (std::size_t i = 0; i < ref.size(); ++i)
    if (got[i] != I(ref[i])) return ::testing::AssertionFailure() << "index " << i << ": got " << got[i] << ", want " << ref[i];
  return ::testing::AssertionSuccess();
}

std::string where(std::size_t n, order o, const std::string& what, std::uint64_t seed) {
  return what + " n=" + std::to_string(n) + (o == order::ascending ? " ascending" : " descending") +
         " seed=" + std::to_string(seed);
}

template <class I>
void check_argsort(const std::vector<c128>& input, const SortOptions& options, const std::string& what) {
  GuardedHostArray<I> indices(std::vector<I>(input.size(), I(0xA5)));
  argsort(test_context(), input, indices.span(), options);
  ASSERT_TRUE(indices_are_reference(input, indices.contents(), options.order)) << what;
  ASSERT_TRUE(indices.guards_intact()) << what;
  // the sorted keys from the same sort
  GuardedHostArray<c128> sorted(std::vector<c128>(input.size()));
  GuardedHostArray<I> again(std::vector<I>(input.size(), I(0xA5)));
  sort_with_indices(test_context(), input, sorted.span(), again.span(), options);
  ASSERT_TRUE(indices_are_reference(input, again.contents(), options.order)) << what << " (with the keys)";
  ASSERT_TRUE(equals_reference(input, sorted.contents(), options.order)) << what << " (with the keys)";
  ASSERT_TRUE(sorted.guards_intact() && again.guards_intact()) << what;
}

TEST(Complex128Pairs, ArgsortEveryIndexWidthAndSize) {
  for (std::size_t n : kSizes)
    for (order o : {order::ascending, order::descending}) {
      const std::uint64_t seed = fresh_seed();
      const auto input = tied_keys(n, seed);
      SortOptions options = argsort_options();
      options.order = o;
      check_argsort<std::uint32_t>(input, options, where(n, o, "u32 indices", seed));
      check_argsort<std::uint64_t>(input, options, where(n, o, "u64 indices", seed));
    }
}

TEST(Complex128Pairs, ArgsortByEveryStableAlgorithm) {
  const std::uint64_t seed = fresh_seed();
  const auto input = tied_keys(20011, seed);
  for (const char* algorithm : {"radix", "merge"})
    for (order o : {order::ascending, order::descending}) {
      SortOptions options = argsort_options();
      options.order = o;
      options.algorithm = algorithm;
      check_argsort<std::uint64_t>(input, options, where(input.size(), o, algorithm, seed));
    }
}

// Values that say where their key stood (the index's low bytes); 16-byte ones also carry a word
// of their own in the high half.
template <class V>
std::vector<V> position_values(std::size_t n) {
  std::vector<V> values = index_values<V>(n);
  if constexpr (sizeof(V) == 16)
    for (std::size_t i = 0; i < n; ++i) std::memcpy(reinterpret_cast<unsigned char*>(&values[i]) + 8, &i, 8);
  return values;
}

template <class V>
void check_pairs(const std::vector<c128>& input, const SortOptions& options, const std::string& what) {
  const auto values = position_values<V>(input.size());
  GuardedHostArray<c128> k(input);
  GuardedHostArray<V> v(values);
  sort_pairs(test_context(), k.span(), v.span(), options);
  ASSERT_TRUE(equals_reference(input, k.contents(), options.order)) << what;
  const auto ref = stable_reference(input, options.order);
  const auto got = v.contents();
  for (std::size_t i = 0; i < ref.size(); ++i)
    ASSERT_TRUE(same_bits(got[i], values[ref[i]])) << what << ": value " << i << " does not travel with its key";
  ASSERT_TRUE(k.guards_intact() && v.guards_intact()) << what;
}

template <class V>
void check_pairs_sizes() {
  for (std::size_t n : kSizes)
    for (order o : {order::ascending, order::descending}) {
      const std::uint64_t seed = fresh_seed();
      check_pairs<V>(tied_keys(n, seed), {.order = o},
                     where(n, o, std::to_string(sizeof(V)) + "-byte values", seed));
    }
}

TEST(Complex128Pairs, ValuesOfOneByte) { check_pairs_sizes<std::uint8_t>(); }
TEST(Complex128Pairs, ValuesOfTwoBytes) { check_pairs_sizes<std::uint16_t>(); }
TEST(Complex128Pairs, ValuesOfFourBytes) { check_pairs_sizes<float>(); }
TEST(Complex128Pairs, ValuesOfEightBytes) { check_pairs_sizes<std::int64_t>(); }
TEST(Complex128Pairs, ValuesOfSixteenBytes) { check_pairs_sizes<Bytes16>(); }

// A budget of the keys alone sends them through host passes: keys made on the host, the values
// (and an argsort's host-made indices) gathered on the host by the sorted index.
TEST(Complex128Pairs, HostPassesCarryValuesAndIndices) {
  const std::size_t n = 20011;
  const std::uint64_t seed = fresh_seed();
  const auto input = tied_keys(n, seed);
  for (order o : {order::ascending, order::descending}) {
    SortOptions options = argsort_options();
    options.order = o;
    options.device_memory_limit = n * 16;
    const SortPlan planned =
        plan(test_context(), {.type = key_type::c128, .n = n, .value_bytes = 8, .positions = true, .options = options});
    ASSERT_NE(planned.path.find("host passes"), std::string::npos) << planned.text();
    check_argsort<std::uint32_t>(input, options, where(n, o, "host passes, u32 indices", seed));
    check_argsort<std::uint64_t>(input, options, where(n, o, "host passes, u64 indices", seed));
    check_pairs<std::uint16_t>(input, options, where(n, o, "host passes, 2-byte values", seed));
    check_pairs<Bytes16>(input, options, where(n, o, "host passes, 16-byte values", seed));
  }
}

TEST(Complex128Pairs, DeviceArrayPairs) {
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(70001)})
    for (order o : {order::ascending, order::descending}) {
      const std::uint64_t seed = fresh_seed();
      const auto input = tied_keys(n, seed);
      const auto values = position_values<std::uint32_t>(n);
      DeviceArray<c128> keys(test_context(), std::span<const c128>(input));
      DeviceArray<std::uint32_t> device_values(test_context(), std::span<const std::uint32_t>(values));
      sort_pairs(test_context(), keys, device_values, {.order = o});
      std::vector<c128> got(n);
      std::vector<std::uint32_t> got_values(n);
      keys.download(got);
      device_values.download(got_values);
      ASSERT_TRUE(equals_reference(input, got, o)) << where(n, o, "DeviceArray", seed);
      const auto ref = stable_reference(input, o);
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got_values[i], values[ref[i]]) << where(n, o, "DeviceArray", seed);
    }
}

// The plan says what travels with the keys: the argsort's indices are the passes' index, values
// are gathered by it.
TEST(Complex128Pairs, PlanNamesTheIndicesAndTheValues) {
  const SortPlan indices =
      plan(test_context(), {.type = key_type::c128, .n = 5000, .value_bytes = 4, .positions = true});
  EXPECT_NE(indices.text().find("argsort: 4-byte indices"), std::string::npos) << indices.text();
  EXPECT_NE(indices.text().find("the argsort's indices"), std::string::npos) << indices.text();
  const SortPlan values = plan(test_context(), {.type = key_type::c128, .n = 5000, .value_bytes = 16});
  EXPECT_NE(values.text().find("with 16-byte values"), std::string::npos) << values.text();
  EXPECT_NE(values.text().find("the 16-byte values in the index's order"), std::string::npos) << values.text();
}

}  // namespace
}  // namespace gpusort::test
