// odd-even (block odd-even transposition with a sliding local window): every key type, both
// orders, stability with every value width, small work-groups, the O(n^2) limit.
#include "algorithms/seeds_test_support.hpp"

namespace gpusort::test {
namespace {
using namespace seeds;

template <class T>
class OddEvenKeys : public ::testing::Test {};
TYPED_TEST_SUITE(OddEvenKeys, AllKeyTypes);

TYPED_TEST(OddEvenKeys, StableMatrix) {
  check_keys_matrix<TypeParam>({.stable = true, .algorithm = "odd-even"}, small_sizes(), some_dists);
}

TEST(OddEven, PairsStableEveryValueWidth) { check_value_widths({.stable = true, .algorithm = "odd-even"}, {3, 256, 1025, 4095}); }
TEST(OddEven, SmallWorkGroups) {
  for (std::size_t wg : {1, 4}) {
    SortOptions o{.stable = true, .algorithm = "odd-even", .work_group_size = wg};
    check_keys_matrix<std::uint32_t>(o, {1, 2, 3, 4, 5, 7, 8, 9, 63, 64, 65, 300}, {dist::uniform, dist::reverse, dist::few_unique});
  }
}
TEST(OddEven, SizeLimit) { expect_too_large("odd-even", 1u << 16, "algorithm 'merge' with SortOptions::local_variant 'odd-even'", false); }

}  // namespace
}  // namespace gpusort::test
