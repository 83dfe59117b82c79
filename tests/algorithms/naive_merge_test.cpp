// naive-merge (odd-even tiles, then sequential merges of run pairs): every key type, both orders,
// stability with every value width, small work-groups (many levels).
#include "algorithms/seeds_test_support.hpp"

namespace gpusort::test {
namespace {
using namespace seeds;

template <class T>
class NaiveMergeKeys : public ::testing::Test {};
TYPED_TEST_SUITE(NaiveMergeKeys, AllKeyTypes);

TYPED_TEST(NaiveMergeKeys, StableMatrix) {
  check_keys_matrix<TypeParam>({.stable = true, .algorithm = "naive-merge"}, interesting_sizes(512, 1 << 13, fresh_seed()),
                               some_dists);
}

TEST(NaiveMerge, PairsStableEveryValueWidth) {
  check_value_widths({.stable = true, .algorithm = "naive-merge"}, {3, 512, 1537, 4097, 9000});
}
TEST(NaiveMerge, SmallWorkGroupsManyLevels) {
  SortOptions o{.stable = true, .algorithm = "naive-merge", .work_group_size = 4};
  check_keys_matrix<std::uint32_t>(o, {7, 8, 9, 65, 1000, 4097}, {dist::uniform, dist::few_unique, dist::organ_pipe});
  check_pairs<std::uint32_t, std::uint32_t>(o, {1000, 4097}, dist::few_unique);
}

}  // namespace
}  // namespace gpusort::test
