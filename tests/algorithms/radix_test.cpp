// Radix sort: every key type x sizes around tiles and powers of two x distributions (incl. float
// specials, and few-unique / all-equal / sorted data where passes are skipped) x both orders;
// pairs with value = index for every value width (stability); one size above 2^20; always stable.
// The tile sizes covered: 1024 (portable path: 64 x 16) and 4096 / 6144 / 7168 (CUDA onesweep: 256 x 16/24/28).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>

#include "support/key_types.hpp"
#include "algorithms/radix_policy.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

const char* const kRadix = "radix";

std::vector<std::size_t> radix_sizes() {
  auto s = interesting_sizes(1024, 1 << 13, fresh_seed());
  for (std::size_t x : {4095, 4096, 4097, 3 * 4096 + 7, (1 << 16) + 1, (1 << 18) - 1}) s.push_back(x);
  return s;
}

template <class T>
class RadixKeys : public ::testing::Test {};
TYPED_TEST_SUITE(RadixKeys, AllKeyTypes);

TYPED_TEST(RadixKeys, Matrix) {
  SortOptions o{.stable = true, .algorithm = kRadix};
  check_keys_matrix<TypeParam>(o, interesting_sizes(1024, 1 << 13, fresh_seed()));
  check_keys_matrix<TypeParam>(o, {4095, 4097, (1 << 16) + 1, (1 << 18) - 1},
                               {dist::uniform, dist::entropy, dist::few_unique, dist::specials});
}

TEST(Radix, LargeUniformAndSkippedPasses) {
  SortOptions o{.stable = true, .algorithm = kRadix};
  std::size_t n = (1 << 20) + 1 + fresh_seed() % 1000;
  check_keys_matrix<std::uint32_t>(o, {n}, {dist::uniform});
  // small values in a wide type: 7 of the 8 passes are skipped
  std::vector<std::uint64_t> v(100000);
  std::mt19937_64 rng(fresh_seed());
  for (auto& x : v) x = rng() % 200;
  auto ref = v;
  std::stable_sort(ref.begin(), ref.end());
  sort(test_context(), std::span<std::uint64_t>(v), o);
  EXPECT_EQ(v, ref);
}

TEST(Radix, PairsEveryValueWidth) {
  SortOptions o{.stable = true, .algorithm = kRadix};
  auto sizes = interesting_sizes(1024, 5000, fresh_seed());
  sizes.push_back(4097);
  sizes.push_back(70001);
  check_pairs<std::uint32_t, std::uint8_t>(o, {1, 2, 200, 255, 5000}, dist::uniform);
  check_pairs<std::uint32_t, std::uint16_t>(o, interesting_sizes(1024, 5000, fresh_seed()), dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes, dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes, dist::entropy);
  check_pairs<float, std::uint64_t>(o, sizes, dist::specials);
  check_pairs<std::int64_t, Bytes16>(o, sizes, dist::few_unique);
  check_pairs<double, std::uint32_t>(o, sizes, dist::specials);
  check_pairs<std::uint8_t, std::uint32_t>(o, sizes, dist::uniform);
  check_pairs<std::int16_t, std::uint64_t>(o, sizes, dist::all_equal);
}

TEST(Radix, SmallWorkGroupsAndItems) {
  for (std::size_t wg : {1, 8, 32}) {
    SortOptions o{.stable = true, .algorithm = kRadix, .work_group_size = wg, .items_per_thread = 3};
    check_keys_matrix<std::uint32_t>(o, interesting_sizes(3 * wg, 3000, fresh_seed()), {dist::uniform, dist::few_unique});
  }
}

TEST(Radix, BadWorkGroupSizeIsAnError) {
  std::vector<std::uint32_t> v = {3, 1, 2};
  auto before = v;
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), {.algorithm = kRadix, .work_group_size = 3}), Error);
  EXPECT_EQ(v, before);
}

// CUDA: radix_single_tile sorts up to 16384 keys (keys of up to 2 bytes; 8192 for 4-byte keys alone,
// beyond which the onesweep passes are faster; fewer for wider keys and values: the largest tile whose
// keys and values fit a thread's registers) in one block with no temporaries; its edges (tile shapes,
// padding digit, skipped passes, both orders, wide values), float keys with -0 and NaN (digits of
// their ordered images, taken from the plain images the tile moves), sorted and reverse input.
TEST(Radix, CudaSingleTileEdges) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "radix_single_tile runs on CUDA devices";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  {
    // the portable single work-group path (up to 4096 keys) would take over just above these
    const algo::ScopedRadixPolicyOverride single_group_off({.single_group_max = 0});
    for (auto [type, vb, cap] : {std::tuple{key_type::u32, std::size_t(0), std::size_t(8192)},
                                 {key_type::u16, 0, 16384}, {key_type::u32, 4, 8192}, {key_type::u64, 8, 4096},
                                 {key_type::f64, 16, 2048}, {key_type::u8, 2, 8192}}) {
      EXPECT_EQ(temporary_storage_bytes(ctx, type, cap, vb, o), 0u) << "value bytes=" << vb;
      EXPECT_GT(temporary_storage_bytes(ctx, type, cap + 1, vb, o), 0u) << "value bytes=" << vb;
    }
  }
  // every tile shape (1024 .. 16384 keys) at and around its edges
  const std::vector<std::size_t> sizes = {2,    31,   255,  256,  257,  1023, 1024, 1025, 2047, 2048,
                                          2049, 4095, 4096, 4097, 8191, 8192, 8193, 16383, 16384};
  const std::vector<dist> dists = {dist::uniform, dist::few_unique, dist::all_equal, dist::specials, dist::entropy,
                                   dist::sorted};
  // the smaller sizes take the bitonic network by default (Radix.CudaSmallBitonic): off here; 4-byte
  // keys alone up to the 1024 x 16 tile's 16384
  const algo::ScopedRadixPolicyOverride bitonic_off({.single_tile_max = 16384, .bitonic_max = 0});
  EXPECT_EQ(algo::choose_radix_policy(ctx.device(), key_type::u32, 0, 4096, o).single_tile.bitonic_log2, 0u);
  check_keys_matrix<std::uint32_t>(o, sizes, dists);
  check_keys_matrix<float>(o, sizes, dists);
  check_keys_matrix<std::int64_t>(o, {2, 257, 4095, 4096, 8192}, dists);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes, dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, {1023, 4096, 8192}, dist::sorted);
  check_pairs<std::uint64_t, std::uint64_t>(o, {2, 1025, 2049, 4096}, dist::uniform);
  check_pairs<double, Bytes16>(o, {2, 257, 1025, 2047, 2048}, dist::specials);
  check_pairs<std::uint8_t, std::uint16_t>(o, {2, 255, 256, 257, 1023, 1025, 2049, 8191, 8192}, dist::uniform);
  // float keys with -0 and NaN take ordered_key digits of the plain images they travel as
  // (kernels/radix_float_flip.h, radix_canonical_image): keys and pairs of every block size
  for (dist d : {dist::specials, dist::entropy, dist::sorted})
    check_pairs<float, std::uint32_t>(o, {2, 257, 2049, 4095, 4096, 8192}, d);
  {
    const algo::ScopedRadixPolicyOverride larger_tiles({.single_tile_max = 16384, .bitonic_max = 0});
    check_keys_matrix<float>(o, {2, 1025, 4096, 8191, 16384}, {dist::specials, dist::entropy});
    check_keys_matrix<double>(o, {3, 2048, 4097}, {dist::specials, dist::entropy});
    check_pairs<float, std::uint64_t>(o, {2, 1025, 2048}, dist::specials);
  }
  // sorted and reverse input: long runs of one digit in the high passes
  check_keys_matrix<std::uint16_t>(o, {16384}, {dist::sorted, dist::reverse});
  check_pairs<std::uint64_t, std::uint32_t>(o, {4095}, dist::reverse);
}

// CUDA: up to 4096 keys, or pairs with keys of up to 32 bits, are sorted by a bitonic network in one
// block (kernels/radix_small_bitonic.h), whose output must be the radix sort's bit for bit: every
// network size (n padded to 2^7 .. 2^12) at and around its edges, signed, narrow and 64-bit types,
// both orders, ties and all-equal keys; floats with -0 and NaN (kept in input order: their spread
// images hold their input positions), also entropy-reduced (f32: a few dozen zeros of both signs in
// 4096 keys); pairs stable with values of every width; 64-bit keys with values and 4097 keys do not
// take it.
TEST(Radix, CudaSmallBitonic) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "radix_small_bitonic runs on CUDA devices";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  const algo::ScopedRadixPolicyOverride on({.bitonic_max = 4096});  // whatever the default caps are
  auto bitonic_log2 = [&](key_type t, std::size_t vb, std::uint64_t n) {
    return algo::choose_radix_policy(ctx.device(), t, vb, n, o).single_tile.bitonic_log2;
  };
  EXPECT_EQ(bitonic_log2(key_type::u32, 0, 2), 7u);
  EXPECT_EQ(bitonic_log2(key_type::i16, 0, 129), 8u);
  EXPECT_EQ(bitonic_log2(key_type::u32, 0, 4096), 12u);
  EXPECT_EQ(bitonic_log2(key_type::u32, 0, 4097), 0u);
  EXPECT_EQ(bitonic_log2(key_type::u64, 8, 1024), 0u);
  EXPECT_EQ(temporary_storage_bytes(ctx, key_type::u32, 4096, 0, o), 0u);
  const std::vector<std::size_t> sizes = {2,   3,   5,   127, 128, 129,  255,  256,  257,  511,  512,
                                          513, 1023, 1024, 1025, 2047, 2048, 2049, 3000, 4095, 4096};
  const std::vector<std::size_t> edges = {2, 127, 129, 255, 256, 1025, 2047, 2049, 4095, 4096};
  const std::vector<dist> dists = {dist::uniform, dist::few_unique, dist::all_equal, dist::specials, dist::entropy};
  const std::vector<dist> float_dists = {dist::uniform, dist::specials, dist::few_unique, dist::all_equal, dist::entropy};
  check_keys_matrix<std::uint32_t>(o, sizes, dists);
  check_keys_matrix<std::int32_t>(o, sizes, dists);
  check_keys_matrix<std::int16_t>(o, {2, 129, 1000, 4096}, dists);
  check_keys_matrix<std::uint16_t>(o, {3, 257, 2048}, dists);
  check_keys_matrix<std::uint8_t>(o, {2, 255, 4096}, dists);
  check_keys_matrix<std::int8_t>(o, {3, 257, 4095}, dists);
  check_keys_matrix<std::uint64_t>(o, edges, dists);
  check_keys_matrix<std::int64_t>(o, {3, 513, 4096}, dists);
  check_keys_matrix<float>(o, sizes, float_dists);
  check_keys_matrix<double>(o, edges, float_dists);
  check_pairs<std::uint32_t, std::uint32_t>(o, edges, dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, {3, 1000, 4096}, dist::uniform);
  check_pairs<float, std::uint32_t>(o, edges, dist::specials);
  check_pairs<std::int32_t, std::uint64_t>(o, {5, 2049, 4096}, dist::entropy);
  check_pairs<std::uint8_t, std::uint16_t>(o, {2, 255, 4096}, dist::few_unique);
  check_pairs<std::int16_t, std::uint8_t>(o, {129, 3000}, dist::uniform);
  check_pairs<float, Bytes16>(o, {127, 2048, 4095}, dist::specials);
}

// CUDA, 4-byte keys with 4-byte values: between the first and the last pass the pairs travel packed
// (one 8-byte word each, kernels/radix_packed_pairs.h; by default from 2^22 pairs, 2^24 with float
// keys), forced here through the policy override from small n: odd n (the last pair stays unpacked
// in both buffers), n around tiles of 8192, 2, 3 (odd: the copy back) and 4 passes (skipped digits),
// both orders, float and signed keys; the values of a packed-input pass in registers (the default)
// and parked in shared memory; then the driver's defaults around 2^22 and 2^24.
TEST(Radix, CudaPackedPairs) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "packed pairs are a radix_onesweep (CUDA) layout";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  {
    // packed at every n; trivial digits skipped from 2^10 keys on
    const algo::ScopedRadixPolicyOverride forced({.packed_pairs = true, .no_skip_max_n = 1024});
    const std::vector<std::size_t> sizes = {8193, 16383, 16384, 3 * 8192 + 7, 100001, (1 << 20) + 2, (1 << 20) + 3, (1 << 22) + 1};
    check_pairs<std::uint32_t, std::uint32_t>(o, sizes, dist::uniform);
    check_pairs<std::uint32_t, std::uint32_t>(o, {8193, 100001}, dist::few_unique);
    check_pairs<float, std::uint32_t>(o, {8193, 100001}, dist::specials);
    check_pairs<std::int32_t, float>(o, {16385, 100000}, dist::entropy);
    for (std::uint64_t range : {1ull << 16, 1ull << 24}) {  // 2 and 3 passes
      for (std::size_t n : {std::size_t(70001), std::size_t(70002)}) {
        std::mt19937_64 rng(fresh_seed());
        std::vector<std::uint32_t> keys(n), values(n);
        for (std::size_t i = 0; i < n; ++i) {
          keys[i] = static_cast<std::uint32_t>(rng() % range);
          values[i] = static_cast<std::uint32_t>(i);
        }
        std::vector<std::pair<std::uint32_t, std::uint32_t>> ref(n);
        for (std::size_t i = 0; i < n; ++i) ref[i] = {keys[i], values[i]};
        std::stable_sort(ref.begin(), ref.end(), [](auto& a, auto& b) { return a.first < b.first; });
        sort_pairs(ctx, std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), o);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) bad += keys[i] != ref[i].first || values[i] != ref[i].second;
        EXPECT_EQ(bad, 0u) << "range " << range << " n " << n;
      }
    }
  }
  {  // packed from small n, every pass run
    const algo::ScopedRadixPolicyOverride packed({.packed_pairs = true, .no_skip_max_n = 1024});
    check_pairs<std::uint32_t, std::uint32_t>(o, {8193, 100001, (1 << 20) + 3}, dist::uniform);
    check_pairs<float, std::uint32_t>(o, {16383}, dist::specials);
  }
  // the driver's own choices around 2^22 and 2^24 (unpacked below 2^22, packed from 2^22)
  check_pairs<std::uint32_t, std::uint32_t>(o, {(1 << 22) - 3, (1 << 22) + 5, (1 << 24) + 1}, dist::uniform);
}

// CUDA, 8-byte integer keys with 8-byte values from 2^21 to below 2^24 keys: staged beside their keys (16
// bytes per key, 2 blocks per SM; kWidePairsBeside in radix_policy.cpp), by default and forced from small
// n (float keys too).
TEST(Radix, CudaWidePairsBesideKeys) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "a radix_onesweep (CUDA) layout";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  ASSERT_TRUE(algo::choose_radix_policy(ctx.device(), key_type::u64, 8, (1 << 21) + 3, o).onesweep.split_stage);
  check_pairs<std::uint64_t, std::uint64_t>(o, {(1 << 21) + 3, (1 << 23) - 1}, dist::uniform);
  ASSERT_TRUE(algo::choose_radix_policy(ctx.device(), key_type::f64, 8, (1 << 21) + 5, o).onesweep.split_stage);
  check_pairs<double, std::uint64_t>(o, {(1 << 21) + 5}, dist::specials);
  check_pairs<std::int64_t, double>(o, {(1 << 22) + 1}, dist::entropy);
  const algo::ScopedRadixPolicyOverride forced({.split_stage = true});
  check_pairs<std::uint64_t, std::uint64_t>(o, {8193, 100001}, dist::few_unique);
  check_pairs<double, std::int64_t>(o, {70001}, dist::specials);
}

// RADIX_UNIFORM_COUNT on and off (uniform_count): the count phase of the onesweep passes counts a
// warp's item once where every lane holds its digit. Sorted, all-equal and few-unique inputs (every
// pass runs: no_skip_max_n) give such warps in most passes, uniform keys in few; tiles with full and
// partial stripes (the single tile's and the network's sizes sort with the switch either way).
TEST(Radix, GpuUniformCount) {
  Context& ctx = test_context();
  if (!ctx.device().is_gpu) GTEST_SKIP() << "the warp-level count of radix_onesweep";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  const std::vector<dist> dists = {dist::sorted, dist::all_equal, dist::few_unique, dist::uniform};
  for (const bool on : {true, false}) {
    SCOPED_TRACE(on ? "uniform_count=1" : "uniform_count=0");
    const algo::ScopedRadixPolicyOverride forced({.uniform_count = on, .no_skip_max_n = std::uint64_t(1) << 30});
    check_keys_matrix<std::uint32_t>(o, {4096, 8192 + 5, 100001}, dists);
    check_keys_matrix<std::int64_t>(o, {2049, 100001}, {dist::sorted, dist::all_equal});
    check_keys_matrix<float>(o, {70001}, {dist::sorted, dist::specials});
    check_pairs<std::uint32_t, std::uint32_t>(o, {4096, (1 << 20) + 3}, dist::sorted);
    check_pairs<std::uint64_t, std::uint64_t>(o, {2048, 100001}, dist::sorted);
    check_pairs<double, std::uint32_t>(o, {4095, 70001}, dist::all_equal);
    check_pairs<double, std::uint64_t>(o, {100001}, dist::specials);
  }
}

// CUDA: the onesweep passes' warp match with its bit masks in constant memory (match_immediate=0),
// and a build of the default form (bit tests against immediates) that fails (=2, as ptxas's did on
// some of its forms), which the driver answers by building the masks' form: both sort right, twice
// (the second time from the driver's record of the failure).
TEST(Radix, CudaMatchForms) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "the match forms of CUDA's radix_onesweep";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  for (const std::uint32_t form : {0u, 2u}) {
    SCOPED_TRACE("match_immediate=" + std::to_string(form));
    const algo::ScopedRadixPolicyOverride forced({.match_immediate = form});
    for (int twice = 0; twice < 2; ++twice) {
      check_keys_matrix<std::uint32_t>(o, {100001, (1 << 20) + 3}, {dist::uniform, dist::sorted});
      check_keys_matrix<float>(o, {70001}, {dist::uniform, dist::specials});
      check_keys_matrix<std::uint64_t>(o, {100001}, {dist::uniform});
      check_pairs<std::uint32_t, std::uint32_t>(o, {(1 << 22) + 5}, dist::uniform);
    }
  }
}

// Float keys whose top digits are even (the generator's uniform floats remap Inf/NaN patterns to
// +-0, which doubles one top digit's share, so the segments' histogram check turns them down): finite
// random bit patterns, with specials a few -0, +0 and NaNs among them (-0 and +0 share a segment;
// the segment's block holds specials, so it ranks canonical images), or none (the passes and
// blocks take the plain sign flips).
template <class F>
std::vector<F> even_top_digit_floats(std::size_t n, std::uint64_t seed, bool specials) {
  using Bits = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  std::mt19937_64 rng(seed);
  std::vector<F> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    F f;
    do {
      const Bits b = static_cast<Bits>(rng());
      std::memcpy(&f, &b, sizeof f);
    } while (!std::isfinite(f));
    keys[i] = f;
  }
  for (std::size_t i = 0; specials && i < 64 && i < n; ++i)
    keys[rng() % n] = i % 3 == 0 ? F(-0.0) : i % 3 == 1 ? F(0.0) : std::numeric_limits<F>::quiet_NaN();
  return keys;
}

// CUDA segments (kernels/radix_segments.cl; forced with segments=1 below the default sizes): the
// onesweep passes sort the top 16 bits, one block per segment of keys that share them the rest. Which
// way each group of sorts went is read from the verbose phases: uniform keys take the segments (a few
// keys each, then about 64); entropy-reduced keys have skewed top digits (the ordinary passes, decided
// from the histogram); keys whose top two digits are even one by one but equal to each other make 256
// segments larger than the tile (the ordinary passes after the top ones). Float keys with specials,
// 64-bit keys (48 bits per segment), pairs and both orders.
TEST(Radix, CudaSegments) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "CUDA's radix_segments.cl";
  SortOptions o{.stable = true, .algorithm = kRadix};
  const algo::ScopedRadixPolicyOverride forced({.segments = true});
  ASSERT_EQ(algo::choose_radix_policy(ctx.device(), key_type::u32, 0, 100001, o).segments.tile(), 1536u);
  const auto phases_of = [&](auto&& run) {
    o.verbose = true;
    testing::internal::CaptureStderr();
    run();
    o.verbose = false;
    return testing::internal::GetCapturedStderr();
  };
  const auto count = [](const std::string& phases, const char* what) {
    std::size_t c = 0;
    for (std::size_t at = phases.find(what); at != std::string::npos; at = phases.find(what, at + 1)) ++c;
    return c;
  };
  // 2 orders x 2 sizes x 2 inputs. The segments' check wants each top digit within 125% of n / 256:
  // 300007 uniform keys are 8 standard deviations inside it (100001 would be 5, 4 for 70001)
  std::string ph = phases_of([&] { check_keys_matrix<std::uint32_t>(o, {300007, (1 << 22) + 3}, {dist::uniform, dist::sorted}); });
  EXPECT_EQ(count(ph, "segment tiles"), 8u) << ph;
  ph = phases_of([&] { check_keys_matrix<std::uint32_t>(o, {100001}, {dist::entropy}); });
  EXPECT_EQ(count(ph, "segment starts"), 0u) << ph;
  EXPECT_EQ(count(ph, "onesweep pass 0"), 2u) << ph;
  ph = phases_of([&] {
    check_keys_matrix<std::int64_t>(o, {300007}, {dist::uniform});
    check_pairs<std::uint32_t, std::uint32_t>(o, {300007, (1 << 21) + 7}, dist::uniform);
    check_pairs<std::uint64_t, std::uint64_t>(o, {300007}, dist::uniform);
  });
  EXPECT_EQ(count(ph, "segment tiles"), 2u + 4u + 2u) << ph;
  // float keys and float pairs, both orders, with specials and without
  for (order ord : {order::ascending, order::descending}) {
    SortOptions fo = o;
    fo.order = ord;
    const std::uint64_t seed = fresh_seed();
    const bool specials = ord == order::ascending;
    const auto fk = even_top_digit_floats<float>(300007, seed, specials);
    GuardedHostArray<float> fout(fk);
    const auto dk = even_top_digit_floats<double>(300007, seed + 1, !specials);
    GuardedHostArray<double> dkeys(dk);
    GuardedHostArray<std::uint32_t> dvals(index_values<std::uint32_t>(dk.size()));
    ph = phases_of([&] {
      fo.verbose = true;
      sort(ctx, fout.span(), fo);
      sort_pairs(ctx, dkeys.span(), dvals.span(), fo);
    });
    EXPECT_EQ(count(ph, "segment tiles"), 2u) << ph;
    EXPECT_TRUE(keys_sorted_like_reference(fk, fout.contents(), ord, true)) << "f32 seed=" << seed;
    EXPECT_TRUE(pairs_sorted_like_reference(dk, dkeys.contents(), dvals.contents(), ord, true)) << "f64 seed=" << seed + 1;
    EXPECT_TRUE(fout.guards_intact() && dkeys.guards_intact() && dvals.guards_intact());
  }
  // top digits (a, a): even one by one, 256 segments of n / 256 keys together; the ordinary passes
  // after the top ones: u32 keys (four passes), u32/u32 pairs (values too), and u64 keys whose second
  // byte is constant (seven passes: the result comes back from the temporary)
  std::mt19937_64 rng(fresh_seed());
  std::vector<std::uint32_t> keys(1 << 20);
  for (auto& k : keys) {
    const auto r = rng();
    k = std::uint32_t((r & 0xFF) * 0x01010000u | ((r >> 8) & 0xFFFF));
  }
  std::vector<std::uint64_t> wide(1 << 20);
  for (auto& k : wide) {
    const auto r = rng();
    k = (r >> 56) * 0x0101000000000000ull | (r & 0x0000FFFFFFFF00FFull) | 0x5A00ull;
  }
  auto ref = keys;
  std::stable_sort(ref.begin(), ref.end());
  auto wide_ref = wide;
  std::stable_sort(wide_ref.begin(), wide_ref.end());
  const auto pair_keys = keys;
  GuardedHostArray<std::uint32_t> pk(pair_keys);
  GuardedHostArray<std::uint32_t> pv(index_values<std::uint32_t>(pair_keys.size()));
  ph = phases_of([&] {
    sort(ctx, std::span<std::uint32_t>(keys), o);
    sort(ctx, std::span<std::uint64_t>(wide), o);
    sort_pairs(ctx, pk.span(), pv.span(), o);
  });
  EXPECT_EQ(keys, ref);
  EXPECT_EQ(wide, wide_ref);
  EXPECT_TRUE(pairs_sorted_like_reference(pair_keys, pk.contents(), pv.contents(), order::ascending, true));
  EXPECT_TRUE(pk.guards_intact() && pv.guards_intact());
  EXPECT_EQ(count(ph, "outgrew"), 3u) << ph;
}

// The segments' other forms (beside CudaSegments' defaults, where 4-byte keys alone rank first with
// an atomic first pass): the tiles' passes that count first (segment_rank_first=0) or rank first
// (1: atomics' ranks in the first pass of keys alone, the ballots for pairs), with a register cap
// (segment_min_blocks), and 4-byte integer pairs left interleaved by packed onesweep passes
// (packed_pairs=1 forces those at these sizes; n % 32 != 0, so the last pairs are unpacked; segments
// of one pair; the fallback from interleaved pairs),
// on integer keys, pairs of both widths and i32/f32 pairs, floats with specials
// (digits of canonical images), sorted keys and keys whose low 16 bits are all ones (the atomic pass
// keeps the tiles' padding, the same low bits, apart), both orders; the skew check off.
TEST(Radix, CudaSegmentsForms) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "CUDA's radix_segments.cl";
  for (const char* form : {"segment_rank_first=1", "segment_rank_first=0", "segment_rank_first=0,segment_min_blocks=4",
                           "packed_pairs=1,segment_rank_first=0", "packed_pairs=1,segment_rank_first=1",
                           "packed_pairs=1,segment_interleaved=0"}) {
    SCOPED_TRACE(form);
    const algo::ScopedRadixPolicyOverride forced(
        algo::parse_radix_policy_override(std::string("segments=1,segment_skew_percent=100000,") + form));
    SortOptions o{.stable = true, .algorithm = kRadix, .verbose = true};
    testing::internal::CaptureStderr();
    check_keys_matrix<std::uint32_t>(o, {300007}, {dist::uniform, dist::sorted, dist::few_unique});
    check_keys_matrix<std::int64_t>(o, {300007}, {dist::uniform});
    check_pairs<std::uint32_t, std::uint32_t>(o, {(1 << 21) + 7}, dist::uniform);
    check_pairs<std::uint64_t, std::uint64_t>(o, {300007}, dist::uniform);
    check_pairs<std::int32_t, float>(o, {300007}, dist::uniform);
    check_pairs<std::uint32_t, std::uint32_t>(o, {(1 << 20) + 5}, dist::few_unique);
    const std::uint64_t seed = fresh_seed();
    const auto fk = even_top_digit_floats<float>(300007, seed, true);
    GuardedHostArray<float> fout(fk);
    o.order = order::descending;
    sort(ctx, fout.span(), o);
    std::mt19937_64 rng(seed);
    std::vector<std::uint32_t> ones(300007);
    for (std::size_t i = 0; i < ones.size(); ++i) ones[i] = std::uint32_t(rng()) | (i % 3 == 0 ? 0xFFFFu : 0u);
    // u32/u32 pairs whose top 16 bits take 1024 values, descending: segments of about 300 pairs (more
    // than the 64 end pairs, so interleaved tiles also read inner words)
    std::vector<std::uint32_t> wide_keys(300007);
    for (auto& k : wide_keys) {
      const auto r = rng();
      k = std::uint32_t(((r % 1024) * 64 + 7) << 16 | ((r >> 20) & 0xFFFF));
    }
    GuardedHostArray<std::uint32_t> wk(wide_keys);
    GuardedHostArray<std::uint32_t> wv(index_values<std::uint32_t>(wide_keys.size()));
    sort_pairs(ctx, wk.span(), wv.span(), o);
    auto ones_ref = ones;
    std::stable_sort(ones_ref.begin(), ones_ref.end());
    o.order = order::ascending;
    sort(ctx, std::span<std::uint32_t>(ones), o);
    const std::string ph = testing::internal::GetCapturedStderr();
    EXPECT_EQ(ones, ones_ref) << "seed=" << seed;
    EXPECT_TRUE(pairs_sorted_like_reference(wide_keys, wk.contents(), wv.contents(), order::descending, true))
        << "wide segments, seed=" << seed;
    EXPECT_TRUE(wk.guards_intact() && wv.guards_intact());
    EXPECT_TRUE(keys_sorted_like_reference(fk, fout.contents(), order::descending, true)) << "f32 seed=" << seed;
    EXPECT_TRUE(fout.guards_intact());
    const auto count = [&](const char* what) {
      std::size_t c = 0;
      for (std::size_t at = ph.find(what); at != std::string::npos; at = ph.find(what, at + 1)) ++c;
      return c;
    };
    // 2 orders x (uniform and sorted u32, i64, 3 pair types) + the float, the low-ones and the wide
    // segments' sorts; 16 distinct keys make 16 segments too large for any tile (the ordinary passes:
    // u32 keys and pairs); packed onesweep passes (packed_pairs) unless segment_interleaved=0: the
    // 4-byte integer pairs' tiles (2 orders x 2 types + the wide segments)
    const std::string f(form);
    const bool interleaved = f.find("packed_pairs=1") != std::string::npos && f.find("segment_interleaved=0") == std::string::npos;
    EXPECT_EQ(count("segment tiles"), 2u * 6u + 3u) << ph;
    EXPECT_EQ(count("segment tiles (interleaved)"), interleaved ? 5u : 0u) << ph;
    EXPECT_EQ(count("outgrew"), 4u) << ph;
  }
}

// 4-byte integer keys alone whose scatter recomputes each key's digit (CUDA's default from 2^24 keys,
// kRecomputeKeys4From; forced here at smaller n and under NVIDIA's OpenCL), and the default at 2^24.
TEST(Radix, GpuRecomputeDigitKeys4) {
  Context& ctx = test_context();
  if (algo::choose_radix_policy(ctx.device(), key_type::u32, 0, 1 << 20, {}).path != algo::RadixPath::onesweep)
    GTEST_SKIP() << "radix_onesweep.cl runs on NVIDIA GPUs";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  {
    const algo::ScopedRadixPolicyOverride forced({.recompute_digit = true});
    check_keys_matrix<std::uint32_t>(o, {100001, (1 << 20) + 3}, {dist::uniform, dist::sorted, dist::few_unique});
    check_keys_matrix<std::int32_t>(o, {70001}, {dist::uniform, dist::all_equal});
  }
  check_keys_matrix<std::uint32_t>(o, {(1 << 24) + 3}, {dist::uniform});
}

// The tiles of 8-byte keys from 2^24 keys on CUDA (24 keys per thread at 3 blocks per SM; 28 for
// 8-byte values staged after their keys from 2^26), forced here at smaller n, and u64 keys at 2^24.
TEST(Radix, GpuEightByteKeyTiles) {
  Context& ctx = test_context();
  if (algo::choose_radix_policy(ctx.device(), key_type::u64, 0, 1 << 20, {}).path != algo::RadixPath::onesweep)
    GTEST_SKIP() << "radix_onesweep.cl runs on NVIDIA GPUs";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  {
    const algo::ScopedRadixPolicyOverride forced({.items = 24, .min_blocks = 3});
    check_keys_matrix<std::uint64_t>(o, {100001, (1 << 20) + 3}, {dist::uniform, dist::sorted});
    check_keys_matrix<double>(o, {70001}, {dist::uniform, dist::specials});
    check_keys_matrix<std::int64_t>(o, {70001}, {dist::uniform, dist::few_unique});
  }
  {
    const algo::ScopedRadixPolicyOverride forced({.items = 28});
    check_pairs<std::uint64_t, std::uint64_t>(o, {100001, (1 << 20) + 3}, dist::uniform);
    check_pairs<double, std::uint64_t>(o, {70001}, dist::specials);
  }
  check_keys_matrix<std::uint64_t>(o, {(1 << 24) + 3}, {dist::uniform});
}

// NVIDIA GPUs above OnesweepPolicy::no_skip_max_n (forced here from 1025 keys): the first pass is
// launched before the histogram is read back, the others only if they change anything, and the result
// is copied back when an odd number ran. Inputs where one pass runs (u64 and u32 keys below 200;
// all-equal keys, whose trivial first pass runs anyway: copy-back), two (u32 keys whose middle bytes
// are constant) and four (u32 keys whose low byte is constant: the trivial first pass runs too);
// packed pairs whose later passes are all trivial unpack in one more pass. Both orders.
TEST(Radix, OnesweepSkippedPasses) {
  Context& ctx = test_context();
  if (algo::choose_radix_policy(ctx.device(), key_type::u32, 0, 1 << 20, {}).path != algo::RadixPath::onesweep)
    GTEST_SKIP() << "radix_onesweep.cl runs on NVIDIA GPUs";
  for (bool packed : {false, true}) {
    if (packed && ctx.device().backend != "cuda") continue;  // packed pairs are CUDA's
    const algo::ScopedRadixPolicyOverride forced(
        {.packed_pairs = packed, .no_skip_max_n = 1024, .single_tile_max = 0, .single_group_max = 0});
    for (order ord : {order::ascending, order::descending}) {
      const SortOptions o{.order = ord, .stable = true, .algorithm = kRadix};
      for (std::size_t n : {std::size_t(1025), std::size_t(7169), std::size_t(100001), std::size_t(1 << 20) + 7}) {
        std::mt19937_64 rng(fresh_seed());
        std::vector<std::uint64_t> small(n);
        std::vector<std::uint32_t> small32(n), middle(n), low(n), equal(n, 0xC0FFEEu), values(n);
        for (std::size_t i = 0; i < n; ++i) {
          small[i] = rng() % 200;
          small32[i] = static_cast<std::uint32_t>(rng() % 200);
          const std::uint32_t r = static_cast<std::uint32_t>(rng());
          middle[i] = (r & 0xFF0000FFu) | 0x00ABCD00u;
          low[i] = (r & 0xFFFFFF00u) | 0x5Au;
          values[i] = static_cast<std::uint32_t>(i);
        }
        auto check = [&](auto keys, const char* what) {
          using K = typename decltype(keys)::value_type;
          // value = index: a stable result is exactly the stable reference's order
          std::vector<std::size_t> idx(n);
          for (std::size_t i = 0; i < n; ++i) idx[i] = i;
          std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
            return ord == order::ascending ? keys[a] < keys[b] : keys[a] > keys[b];
          });
          auto got = keys;
          sort(ctx, std::span<K>(got), o);
          std::size_t bad = 0;
          for (std::size_t i = 0; i < n; ++i) bad += got[i] != keys[idx[i]];
          EXPECT_EQ(bad, 0u) << what << " keys, n=" << n << " packed " << packed;
          auto pk = keys;
          auto pv = values;
          sort_pairs(ctx, std::span<K>(pk), std::span<std::uint32_t>(pv), o);
          bad = 0;
          for (std::size_t i = 0; i < n; ++i) bad += pk[i] != keys[idx[i]] || pv[i] != idx[i];
          EXPECT_EQ(bad, 0u) << what << " pairs, n=" << n << " packed " << packed;
        };
        check(small, "u64 < 200 (7 of 8 passes trivial)");
        check(small32, "u32 < 200 (3 of 4 passes trivial)");
        check(middle, "u32, bytes 1-2 constant");
        check(low, "u32, byte 0 constant");
        check(equal, "u32, all equal");
      }
      if (!packed) {
        check_keys_matrix<std::uint32_t>(o, {1025, 100001}, {dist::uniform, dist::few_unique, dist::sorted});
        check_keys_matrix<float>(o, {4097, 100001}, {dist::specials, dist::all_equal});
        check_pairs<std::int64_t, std::uint64_t>(o, {70001}, dist::few_unique);
      }
    }
  }
}

// CUDA, 2^30 keys and more: the onesweep passes run in portions (30-bit look-back counts, 64-bit
// positions). Forced here from small n through the override (portions of 16 tiles): one and several
// portions, a short last portion, skipped passes (one launch per portion), float keys with -0/NaN
// (the flag ORed over portions), stable pairs of every value width; then one real 2^30 sort.
TEST(Radix, CudaPortions) {
  Context& ctx = test_context();
  if (ctx.device().backend != "cuda") GTEST_SKIP() << "portions are a radix_onesweep (CUDA) form";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  {
    const algo::ScopedRadixPolicyOverride forced({.no_skip_max_n = 1024, .portion = 1});
    const std::vector<std::size_t> sizes = {20000, 65536, 65537, 3 * 65536 + 4097, 500001};
    check_keys_matrix<std::uint32_t>(o, sizes, {dist::uniform, dist::few_unique, dist::all_equal});
    check_keys_matrix<float>(o, {65537, 300001}, {dist::specials, dist::uniform});
    check_keys_matrix<std::uint8_t>(o, {300001}, {dist::uniform});  // one pass, several launches
    check_keys_matrix<std::int64_t>(o, {300001}, {dist::entropy});
    check_pairs<std::uint32_t, std::uint32_t>(o, {65537, 400003}, dist::few_unique);
    check_pairs<std::uint64_t, std::uint64_t>(o, {300001}, dist::uniform);
    check_pairs<double, Bytes16>(o, {200001}, dist::specials);
    check_pairs<std::int16_t, std::uint8_t>(o, {300001}, dist::uniform);
    check_pairs<std::uint32_t, std::uint16_t>(o, {300001}, dist::few_unique);
  }
  // the driver's own choice at 2^30 + 3 (three portions): sorted, and the same multiset (a sum of
  // hashes: a host sort of 2^30 keys would take minutes)
  const std::size_t n = (std::size_t(1) << 30) + 3;
  std::vector<std::uint32_t> keys(n);
  const std::uint64_t seed = fresh_seed();
  auto mix = [](std::uint64_t x) {
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  };
  std::uint64_t before = 0, after = 0;
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::uint32_t>(mix(seed + i * 0x9e3779b97f4a7c15ull));
    before += mix(keys[i] + 1);
  }
  sort(ctx, std::span<std::uint32_t>(keys), {.algorithm = kRadix});
  std::size_t unsorted = 0;
  for (std::size_t i = 0; i < n; ++i) {
    after += mix(keys[i] + 1);
    unsorted += i > 0 && keys[i] < keys[i - 1];
  }
  EXPECT_EQ(unsorted, 0u);
  EXPECT_EQ(before, after);
}

// Other devices' onesweep passes (kernels/radix_onesweep_portable.cl; the default on OpenCL GPUs,
// forced here on any OpenCL device, with the single work-group path off; CUDA runs radix_onesweep.cl
// only): every key type around
// tile edges with skipped passes and both orders, stable pairs of several value widths; then the
// look-back's fallback: every predecessor counted from its keys (fallback_only: also tile 0's
// count with its digits' global offsets), and counting as soon as a predecessor has published
// nothing (spin_limit = 0: status words and counted tiles mixed as the race falls); look-back steps of
// four words.
TEST(Radix, PortableOnesweep) {
  Context& ctx = test_context();
  if (ctx.device().backend == "cuda") GTEST_SKIP() << "CUDA devices run radix_onesweep.cl only";
  const SortOptions o{.stable = true, .algorithm = kRadix};
  const auto tile = static_cast<std::size_t>(
      algo::choose_radix_policy(ctx.device(), key_type::u32, 0, 1 << 20, o, {.portable_onesweep = true})
          .portable.tile());
  {
    const algo::ScopedRadixPolicyOverride forced({.single_group_max = 0, .portable_onesweep = true});
    ASSERT_EQ(algo::choose_radix_policy(ctx.device(), key_type::u32, 0, 5000, o).path,
              algo::RadixPath::portable_onesweep);
    const std::vector<std::size_t> sizes = {2, tile - 1, tile + 1, 3 * tile + 7, 20001};
    AllKeyTypeList::for_each([&](auto key) {
      using K = decltype(key);
      SCOPED_TRACE(key_type_name(key_type_of<K>::value));
      check_keys_matrix<K>(o, sizes, {dist::uniform, dist::few_unique, dist::specials});
    });
    check_keys_matrix<std::uint32_t>(o, {(1 << 18) + 3}, {dist::uniform, dist::sorted, dist::all_equal});
    check_pairs<std::uint32_t, std::uint32_t>(o, {tile + 1, 50001}, dist::few_unique);
    check_pairs<std::uint64_t, std::uint8_t>(o, {20001}, dist::uniform);
    check_pairs<double, Bytes16>(o, {20001}, dist::specials);
  }
  for (const algo::RadixPolicyOverride& fallback :
       {algo::RadixPolicyOverride{.single_group_max = 0, .portable_onesweep = true, .fallback_only = true},
        algo::RadixPolicyOverride{.single_group_max = 0, .portable_onesweep = true, .spin_limit = 0},
        algo::RadixPolicyOverride{.single_group_max = 0, .portable_onesweep = true, .lookback_window = 4}}) {
    const algo::ScopedRadixPolicyOverride forced(fallback);
    check_keys_matrix<std::uint32_t>(o, {3 * tile + 7, 40001}, {dist::uniform, dist::few_unique});
    check_pairs<std::uint32_t, std::uint32_t>(o, {20001}, dist::entropy);
  }
}

}  // namespace
}  // namespace gpusort::test
