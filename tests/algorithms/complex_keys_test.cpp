// complex64 keys (key_type::c64, std::complex<float>): the host order against numpy's documented rule
// written out here with float comparisons, then the device sorts against std::stable_sort in that
// order: pairs of two value widths through radix and merge, argsort, host data and DeviceArray, both
// orders, NaN payloads and the sign of zero kept bit for bit (the typed suites of each algorithm cover
// keys alone).
#include <cmath>
#include <complex>
#include <numeric>

#include "algorithms/radix_policy.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "support/key_types.hpp"
#include "support/numpy_complex_order.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

using c64 = std::complex<float>;

float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }

// Parts of every kind: NaNs of several payloads and both signs, zeros, infinities, subnormals, the
// extremes, small integers (so that real parts tie).
std::vector<float> special_parts() {
  std::vector<float> p;
  for (std::uint32_t b : {0x7FC00000u, 0x7FC00001u, 0xFFC00005u, 0x7F800001u, 0xFFFFFFFFu, 0x00000000u, 0x80000000u,
                          0x00000001u, 0x80000001u, 0x007FFFFFu, 0x7F800000u, 0xFF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu})
    p.push_back(from_bits(b));
  for (float f : {-2.0f, -1.0f, 1.0f, 2.0f, 0.5f}) p.push_back(f);
  return p;
}

std::vector<c64> special_keys() {
  std::vector<c64> keys;
  for (float re : special_parts())
    for (float im : special_parts()) keys.emplace_back(re, im);
  return keys;
}

TEST(ComplexKeys, HostOrderIsNumpys) {
  static_assert(key_type_of<c64>::value == key_type::c64 && sizeof(c64) == 8);
  EXPECT_EQ(key_size(key_type::c64), 8u);
  EXPECT_EQ(parse_key_type("c64"), key_type::c64);
  EXPECT_TRUE(is_complex(key_type::c64) && !is_float(key_type::c64));
  const auto keys = special_keys();
  for (c64 a : keys)
    for (c64 b : keys) {
      ASSERT_EQ(key_less<c64>{}(a, b), numpy_less(a, b)) << a << " " << b;
      ASSERT_EQ(key_less<c64>{order::descending}(a, b), numpy_less(b, a)) << a << " " << b;
    }
}

// Every class and tie in one array, repeated so that the device sorts take it; the stable reference
// keeps equal keys (NaN payloads, zero signs) in input order, and the results must equal it bit for bit.
TEST(ComplexKeys, SpecialsSortStablyBitForBit) {
  auto base = special_keys();
  std::vector<c64> keys;
  core::SplitMix64 rng{fresh_seed()};
  while (keys.size() < (1u << 16) + 5) keys.push_back(base[rng.next() % base.size()]);
  for (std::size_t n : {std::size_t(7), std::size_t(1000), keys.size()})
    for (const char* algorithm : {"radix", "merge"})
      for (order o : {order::ascending, order::descending}) {
        const std::vector<c64> input(keys.begin(), keys.begin() + n);
        std::vector<std::uint64_t> ref(n);
        std::iota(ref.begin(), ref.end(), 0u);
        std::stable_sort(ref.begin(), ref.end(), [&](std::uint64_t a, std::uint64_t b) {
          return o == order::ascending ? numpy_less(input[a], input[b]) : numpy_less(input[b], input[a]);
        });
        GuardedHostArray<c64> k(input);
        GuardedHostArray<std::uint64_t> v(index_values<std::uint64_t>(n));
        sort_pairs(test_context(), k.span(), v.span(), {.order = o, .stable = true, .algorithm = algorithm});
        const auto got = k.contents();
        ASSERT_EQ(v.contents(), ref) << algorithm << " n=" << n;
        for (std::size_t i = 0; i < n; ++i) ASSERT_TRUE(same_bits(got[i], input[ref[i]])) << algorithm << " at " << i;
        ASSERT_TRUE(k.guards_intact() && v.guards_intact());
      }
}

TEST(ComplexKeys, PairsStableInBothOrders) {
  const std::vector<std::size_t> sizes = {1, 3, 255, 4097, (1u << 16) + 3};
  const SortOptions radix{.stable = true, .algorithm = "radix"}, merge{.stable = true, .algorithm = "merge"};
  check_pairs<c64, std::uint32_t>(radix, sizes, dist::specials);
  check_pairs<c64, Bytes16>(radix, sizes, dist::specials);
  check_pairs<c64, std::uint32_t>(merge, sizes, dist::specials);
  check_pairs<c64, std::uint32_t>(merge, sizes, dist::few_unique);
}

TEST(ComplexKeys, ArgsortIsTheStablePermutation) {
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    const auto keys = make_keys<c64>(20011, dist::specials, seed);
    std::vector<std::uint64_t> got(keys.size()), ref(keys.size());
    std::iota(ref.begin(), ref.end(), 0u);
    std::stable_sort(ref.begin(), ref.end(), [&](std::uint64_t a, std::uint64_t b) { return key_less<c64>{o}(keys[a], keys[b]); });
    SortOptions opt = argsort_options();
    opt.order = o;
    argsort(test_context(), keys, got, opt);
    ASSERT_EQ(got, ref) << (o == order::ascending ? "ascending" : "descending") << " seed=" << seed;
  }
}

TEST(ComplexKeys, DeviceArrayAndAutomaticChoice) {
  const std::uint64_t seed = fresh_seed();
  const auto keys = make_keys<c64>(70001, dist::specials, seed);
  DeviceArray<c64> d(test_context(), std::span<const c64>(keys));
  sort(test_context(), d, {.order = order::descending});
  std::vector<c64> got(keys.size());
  d.download(got);
  ASSERT_TRUE(keys_sorted_like_reference(keys, got, order::descending, true)) << "seed=" << seed;
}

// CUDA's one-block radix sorts (the single tile, the bitonic network, the segments, and the
// segmented tile bin's block per row, which runs them) move ordered images and turn them back into
// keys; a complex key's image has no inverse, so the policy keeps complex keys to the passes that move
// the keys themselves. No device needed: an H100's description.
TEST(ComplexKeys, CudaNeverTakesTheOneBlockSorts) {
  DeviceDescription h100;
  h100.backend = "cuda", h100.name = "NVIDIA H100 80GB HBM3", h100.vendor = "NVIDIA Corporation";
  h100.architecture = "sm_90", h100.is_gpu = true;
  h100.local_memory_bytes = 232448, h100.max_work_group_size = 1024, h100.compute_units = 132;
  for (std::size_t vb : {0, 4, 8, 16})
    for (std::uint64_t n : {2ull, 100ull, 5000ull, 1ull << 16, 1ull << 22, 1ull << 26})
      for (const algo::RadixPolicyOverride& o : {algo::RadixPolicyOverride{}, algo::RadixPolicyOverride{.segments = true}}) {
        const algo::RadixPolicy p = algo::choose_radix_policy(h100, key_type::c64, vb, n, SortOptions{}, o);
        EXPECT_NE(p.path, algo::RadixPath::single_tile) << "n=" << n << " vb=" << vb;
        EXPECT_EQ(p.segments.threads, 0u) << "n=" << n << " vb=" << vb;
        EXPECT_FALSE(p.onesweep.recompute_digit) << "n=" << n << " vb=" << vb;
      }
  for (std::uint64_t length : {33ull, 300ull, 1024ull, 4096ull})
    EXPECT_FALSE(algo::segmented_tiles_shape(h100, key_type::c64, 4, true, 1000, length).block) << length;
  EXPECT_TRUE(algo::segmented_tiles_shape(h100, key_type::u64, 4, true, 1000, 300).block);  // the same row for u64
}

TEST(ComplexKeys, ComparatorIsRefused) {
  std::vector<c64> keys(100);
  try {
    sort(test_context(), std::span<c64>(keys), {.comparator = "return a < b;"});
    FAIL() << "a comparator over complex keys was taken";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::unsupported);
    EXPECT_NE(std::string(e.what()).find("complex"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gpusort::test
