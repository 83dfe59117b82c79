// The merge algorithm: every local variant x every merge variant (u32 keys, stable, both orders,
// sizes around tiles and powers of two, duplicates-heavy distributions), stability with pairs,
// every value width and key type for the default variants, one large size, the local kernels
// alone, and the errors. Define sets are kept few: variants on u32 only, key types on the default.
#include <algorithm>

#include "algorithms/merge_sort.hpp"
#include "runtime/device.hpp"
#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

const std::vector<std::string> kLocal = {"blocked", "merge", "bitonic", "rank", "odd-even", "bubble"};
const std::vector<std::string> kMerge = {"blocked", "path", "rank", "half", "cached", "hashed"};

SortOptions merge_options(const std::string& local, const std::string& merge, std::size_t wg = 0,
                          std::size_t items = 0) {
  return {.stable = true, .algorithm = "merge", .work_group_size = wg, .items_per_thread = items,
          .local_variant = local, .merge_variant = merge};
}

TEST(MergeVariants, EveryLocalTimesEveryMergeKeys) {
  auto sizes = interesting_sizes(1024, 1 << 14, fresh_seed());
  for (const auto& l : kLocal)
    for (const auto& m : kMerge) {
      SCOPED_TRACE("local=" + l + " merge=" + m);
      check_keys_matrix<std::uint32_t>(merge_options(l, m), sizes,
                                       {dist::uniform, dist::few_unique, dist::all_equal, dist::reverse});
      if (HasFatalFailure()) return;
    }
}

TEST(MergeVariants, SmallGroupsManyPasses) {
  // tile = 16 * 2 = 32 keys: up to 7 merge passes, odd run counts, short last runs.
  std::vector<std::size_t> sizes = {2, 31, 33, 63, 65, 100, 255, 257, 1000, 1023, 2049, 3001};
  for (const auto& l : kLocal)
    for (const auto& m : kMerge) {
      SCOPED_TRACE("local=" + l + " merge=" + m);
      check_keys_matrix<std::uint32_t>(merge_options(l, m, 16, 2), sizes, {dist::uniform, dist::few_unique});
      if (HasFatalFailure()) return;
    }
}

TEST(MergeVariants, EveryCombinationIsStableWithPairs) {
  std::vector<std::size_t> sizes = {3, 1000, 1025, 4097, 9000};
  for (const auto& l : kLocal)
    for (const auto& m : kMerge) {
      SCOPED_TRACE("local=" + l + " merge=" + m);
      check_pairs<std::uint32_t, std::uint32_t>(merge_options(l, m), sizes, dist::few_unique);
      check_pairs<std::uint32_t, std::uint32_t>(merge_options(l, m), {5000}, dist::all_equal);
      if (HasFatalFailure()) return;
    }
}

TEST(MergeDefault, PairsEveryValueWidth) {
  SortOptions o = merge_options("", "");
  auto sizes = interesting_sizes(1024, 20000, fresh_seed());
  check_pairs<std::uint32_t, std::uint8_t>(o, {1, 2, 200, 255, 3000}, dist::few_unique);
  check_pairs<std::uint32_t, std::uint16_t>(o, sizes, dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes, dist::uniform);
  check_pairs<std::uint32_t, std::uint64_t>(o, sizes, dist::few_unique);
  check_pairs<std::uint32_t, Bytes16>(o, sizes, dist::all_equal);
}

template <class T>
class MergeKeys : public ::testing::Test {};
TYPED_TEST_SUITE(MergeKeys, AllKeyTypes);

TYPED_TEST(MergeKeys, DefaultVariantsMatrix) {
  check_keys_matrix<TypeParam>(merge_options("", ""), interesting_sizes(1024, 1 << 13, fresh_seed()),
                               {dist::uniform, dist::entropy, dist::few_unique, dist::all_equal,
                                dist::organ_pipe, dist::specials, dist::sorted});
}

TEST(MergeDefault, LargeSize) {
  std::size_t n = (1u << 18) + 1 + fresh_seed() % 1000;
  check_keys_matrix<std::uint32_t>(merge_options("", ""), {n}, {dist::uniform, dist::few_unique});
  check_pairs<std::uint32_t, std::uint32_t>(merge_options("", ""), {n}, dist::few_unique);
}

TEST(MergeDefault, StableIsTheDefaultBehaviourToo) {
  // merge is stable whether or not stability was asked for
  auto input = make_keys<std::uint32_t>(5000, dist::few_unique, fresh_seed());
  auto keys = input;
  std::vector<std::uint32_t> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::uint32_t(i);
  sort_pairs(test_context(), std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values), {.algorithm = "merge"});
  EXPECT_TRUE(pairs_sorted_like_reference(input, keys, values, order::ascending, true));
}

// The local kernels alone: every tile of group_size * items keys sorted stably, in place.
TEST(MergeLocal, SortTilesSortsEachTile) {
  Context& ctx = test_context();
  for (const auto& l : kLocal) {
    SCOPED_TRACE("local=" + l);
    const std::uint32_t group = algo::default_group_size(ctx.runtime_device(), 256);
    const std::uint32_t items = algo::merge::default_local_items(ctx.runtime_device(), l, key_type::u32, 4, group);
    const std::size_t tile = std::size_t(group) * items;
    for (std::size_t n : {std::size_t(1), tile - 1, tile, 3 * tile + 17}) {
      for (order o : {order::ascending, order::descending}) {
        auto input = make_keys<std::uint32_t>(n, dist::few_unique, fresh_seed());
        std::vector<std::uint32_t> idx(n);
        for (std::size_t i = 0; i < n; ++i) idx[i] = std::uint32_t(i);
        DeviceArray<std::uint32_t> dkeys(ctx, std::span<const std::uint32_t>(input));
        DeviceArray<std::uint32_t> dvals(ctx, std::span<const std::uint32_t>(idx));
        SortOptions opt{.order = o};
        algo::SortJob job{ctx.runtime_device(), key_type::u32, n, 4, dkeys.buffer().runtime_buffer(),
                          &dvals.buffer().runtime_buffer(), opt};
        algo::merge::sort_tiles(job, l, group, items);
        ctx.runtime_device().finish();
        std::vector<std::uint32_t> keys(n), vals(n);
        dkeys.download(std::span<std::uint32_t>(keys));
        dvals.download(std::span<std::uint32_t>(vals));
        for (std::size_t b = 0; b < n; b += tile) {
          std::size_t e = std::min(n, b + tile);
          std::vector<std::uint32_t> in(input.begin() + b, input.begin() + e), k(keys.begin() + b, keys.begin() + e),
              v(vals.begin() + b, vals.begin() + e);
          for (auto& x : v) x -= std::uint32_t(b);
          ASSERT_TRUE(pairs_sorted_like_reference(in, k, v, o, true)) << "tile at " << b << " n=" << n;
        }
      }
    }
  }
}

// One merge pass alone: runs of width 1024 merged into 2048 by every merge variant.
TEST(MergeGlobal, OnePassMergesPairsOfRuns) {
  Context& ctx = test_context();
  const std::size_t n = 5 * 1024 + 300, width = 1024;
  for (const auto& m : kMerge) {
    SCOPED_TRACE("merge=" + m);
    auto input = make_keys<std::uint32_t>(n, dist::few_unique, fresh_seed());
    for (std::size_t b = 0; b < n; b += width)
      std::stable_sort(input.begin() + b, input.begin() + std::min(n, b + width));
    DeviceArray<std::uint32_t> src(ctx, std::span<const std::uint32_t>(input)), dst(ctx, n);
    SortOptions opt;
    algo::SortJob job{ctx.runtime_device(), key_type::u32, n, 0, src.buffer().runtime_buffer(), nullptr, opt};
    auto& s = src.buffer().runtime_buffer();
    auto& d = dst.buffer().runtime_buffer();
    algo::merge::merge_pass(job, m, s, s, d, d, width, 256,
                            algo::merge::default_merge_items(ctx.runtime_device(), m, key_type::u32, 0, 256));
    ctx.runtime_device().finish();
    std::vector<std::uint32_t> out(n);
    dst.download(std::span<std::uint32_t>(out));
    for (std::size_t b = 0; b < n; b += 2 * width) {
      std::vector<std::uint32_t> ref(input.begin() + b, input.begin() + std::min(n, b + 2 * width));
      std::stable_sort(ref.begin(), ref.end());
      ASSERT_TRUE(std::equal(ref.begin(), ref.end(), out.begin() + b)) << "pair at " << b;
    }
  }
}

TEST(MergeErrors, UnknownVariantsAndBadItems) {
  std::vector<std::uint32_t> v = {3, 1, 2, 5, 4};
  auto before = v;
  for (auto [l, m] : {std::pair<std::string, std::string>{"quick", ""}, {"", "zip"}}) {
    try {
      sort(test_context(), std::span<std::uint32_t>(v), merge_options(l, m));
      FAIL() << "accepted local=" << l << " merge=" << m;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::invalid_argument);
      std::string what = e.what();
      EXPECT_NE(what.find(l.empty() ? "hashed" : "odd-even"), std::string::npos) << what;
    }
    EXPECT_EQ(v, before);
  }
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), merge_options("", "", 0, 3)), Error);
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), merge_options("", "", 3, 0)), Error);
  EXPECT_EQ(v, before);
}

}  // namespace
}  // namespace gpusort::test
