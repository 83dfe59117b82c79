// The 16-bit float and bool keys with values: every value width through the stable device sorts
// (radix, merge), a comparison sort's pairs, argsort, and bool's rule that any nonzero byte is true,
// against std::stable_sort in the library's order (the typed suites of each algorithm cover keys alone).
#include <array>
#include <numeric>

#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

template <class T>
class HalfBoolPairs : public ::testing::Test {};
using HalfBoolKeyTypes = ::testing::Types<half_bits, bfloat16_bits, bool_byte>;
TYPED_TEST_SUITE(HalfBoolPairs, HalfBoolKeyTypes);

// Tiny, one tile, several tiles, past one block's worth; NaN / -0 / inf / subnormal specials for the
// floats (dist::specials), two values for bool.
TYPED_TEST(HalfBoolPairs, EveryValueWidthStableInBothOrders) {
  using T = TypeParam;
  const std::vector<std::size_t> sizes = {1, 3, 255, 4097, (1u << 16) + 3};
  const dist d = std::is_same_v<T, bool_byte> ? dist::uniform : dist::specials;
  const SortOptions radix{.stable = true, .algorithm = "radix"}, merge{.stable = true, .algorithm = "merge"};
  check_pairs<T, std::uint8_t>(radix, sizes, d);
  check_pairs<T, std::uint16_t>(radix, sizes, d);
  check_pairs<T, std::uint32_t>(radix, sizes, d);
  check_pairs<T, std::uint64_t>(radix, sizes, d);
  check_pairs<T, Bytes16>(radix, sizes, d);
  // merge moves values by the same code for every key type: two widths (PoCL builds a program each)
  check_pairs<T, std::uint16_t>(merge, sizes, d);
  check_pairs<T, Bytes16>(merge, sizes, d);
  check_pairs<T, std::uint32_t>({.stable = true, .algorithm = "rank"}, {0, 2, 257, 1025}, d);
}

TYPED_TEST(HalfBoolPairs, ArgsortIsTheStablePermutation) {
  using T = TypeParam;
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    const auto keys = make_keys<T>(20011, std::is_same_v<T, bool_byte> ? dist::uniform : dist::specials, seed);
    std::vector<std::uint64_t> got(keys.size()), ref(keys.size());
    std::iota(ref.begin(), ref.end(), 0u);
    std::stable_sort(ref.begin(), ref.end(), [&](std::uint64_t a, std::uint64_t b) { return key_less<T>{o}(keys[a], keys[b]); });
    SortOptions opt = argsort_options();
    opt.order = o;
    argsort(test_context(), keys, got, opt);
    ASSERT_EQ(got, ref) << (o == order::ascending ? "ascending" : "descending") << " seed=" << seed;
  }
}

// A bool key is its byte: 0 false, any other byte true; trues of different bytes are equal keys, so a
// stable sort keeps them in input order (the values show it; CUDA's one-block radix sorts may write
// a true byte back as 1, so the keys are compared as truth values).
TEST(BoolKeys, AnyNonzeroByteIsTrueAndKeepsItsPlace) {
  const std::uint8_t bytes[] = {0, 1, 2, 255, 1, 0, 128};
  const std::uint64_t seed = fresh_seed();
  core::SplitMix64 rng{seed};
  for (std::size_t n : {std::size_t(1001), std::size_t(9001), std::size_t(70001)}) {
    std::vector<bool_byte> keys(n);
    for (auto& k : keys) k.byte = bytes[rng.next() % std::size(bytes)];
    for (const char* algorithm : {"radix", "merge"})
      for (order o : {order::ascending, order::descending}) {
        std::vector<std::uint32_t> ref(n);
        std::iota(ref.begin(), ref.end(), 0u);
        std::stable_sort(ref.begin(), ref.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return key_less<bool_byte>{o}(keys[a], keys[b]); });
        GuardedHostArray<bool_byte> k(keys);
        GuardedHostArray<std::uint32_t> v(index_values<std::uint32_t>(n));
        sort_pairs(test_context(), k.span(), v.span(), {.order = o, .stable = true, .algorithm = algorithm});
        const auto got_keys = k.contents();
        ASSERT_EQ(v.contents(), ref) << algorithm << " n=" << n << " seed=" << seed;
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(got_keys[i].byte != 0, keys[ref[i]].byte != 0) << i;
      }
  }
}

// C++ bool arrays sort as b8 keys: false before true.
TEST(BoolKeys, SpanOfBool) {
  static_assert(key_type_of<bool>::value == key_type::b8 && key_type_of<bool_byte>::value == key_type::b8);
  static_assert(key_type_of<half_bits>::value == key_type::f16 && key_type_of<bfloat16_bits>::value == key_type::bf16);
  std::array<bool, 7> v = {true, false, true, true, false, false, true};
  sort(test_context(), std::span<bool>(v));
  EXPECT_EQ(v, (std::array<bool, 7>{false, false, false, true, true, true, true}));
  sort(test_context(), std::span<bool>(v), {.order = order::descending});
  EXPECT_EQ(v, (std::array<bool, 7>{true, true, true, true, false, false, false}));
}

}  // namespace
}  // namespace gpusort::test
