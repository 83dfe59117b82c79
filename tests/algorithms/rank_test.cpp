// rank (parallel selection / counting sort): every key type, both orders, stable and unstable
// variants, several items per thread and work-group sizes, every value width, the O(n^2) limit.
#include "algorithms/seeds_test_support.hpp"

namespace gpusort::test {
namespace {
using namespace seeds;

template <class T>
class RankKeys : public ::testing::Test {};
TYPED_TEST_SUITE(RankKeys, AllKeyTypes);

TYPED_TEST(RankKeys, UnstableMatrix) {
  check_keys_matrix<TypeParam>({.algorithm = "rank"}, small_sizes(), some_dists);
}
TYPED_TEST(RankKeys, StableKeepsBitsOfEqualKeysInOrder) {
  check_keys_matrix<TypeParam>({.stable = true, .algorithm = "rank"}, {2, 257, 2047}, {dist::few_unique, dist::specials});
}

TEST(Rank, PairsStableEveryValueWidth) { check_value_widths({.stable = true, .algorithm = "rank"}, {3, 256, 1025, 4095}); }
TEST(Rank, PairsUnstableArePermutations) {
  check_value_widths({.algorithm = "rank"}, {3, 256, 1025});
  check_pairs<std::uint32_t, std::uint32_t>({.algorithm = "rank", .local_variant = "stable"}, {777}, dist::all_equal);
}
TEST(Rank, ItemsPerThreadAndGroupSizes) {
  check_keys_matrix<std::uint32_t>({.algorithm = "rank", .work_group_size = 32, .items_per_thread = 1},
                                   {1, 31, 32, 33, 1000}, {dist::uniform, dist::few_unique});
  check_pairs<std::uint32_t, std::uint32_t>({.stable = true, .algorithm = "rank", .work_group_size = 32, .items_per_thread = 1},
                                            {33, 1000}, dist::few_unique);
}
TEST(Rank, SizeLimit) { expect_too_large("rank", 1u << 16, "algorithm 'merge' with SortOptions::local_variant 'rank'", true); }
TEST(Rank, BadVariants) {
  std::vector<std::uint32_t> v = {3, 1, 2};
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), {.algorithm = "rank", .local_variant = "nope"}), Error);
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), {.stable = true, .algorithm = "rank", .local_variant = "unstable"}), Error);
  EXPECT_EQ(v, (std::vector<std::uint32_t>{3, 1, 2}));
}

}  // namespace
}  // namespace gpusort::test
