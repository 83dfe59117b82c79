// hybrid (section-merge on the device, top levels merged by host threads): every key type, both
// orders, stability with every value width, every split between device and host levels.
#include "algorithms/seeds_test_support.hpp"

namespace gpusort::test {
namespace {
using namespace seeds;

template <class T>
class HybridKeys : public ::testing::Test {};
TYPED_TEST_SUITE(HybridKeys, AllKeyTypes);

TYPED_TEST(HybridKeys, StableMatrix) {
  check_keys_matrix<TypeParam>({.stable = true, .algorithm = "hybrid"}, interesting_sizes(32, 1 << 14, fresh_seed()),
                               some_dists);
}

TEST(Hybrid, PairsStableEveryValueWidth) {
  check_value_widths({.stable = true, .algorithm = "hybrid"}, {3, 33, 1000, 4097, 30000});
}
TEST(Hybrid, HostLevels) {
  for (int k : {0, 1, 2, 3, 5, 40}) {
    SortOptions o{.stable = true, .algorithm = "hybrid", .items_per_thread = 7, .host_merge_levels = k};
    check_pairs<std::uint32_t, std::uint32_t>(o, {1, 6, 7, 8, 50, 3001, 20000}, dist::few_unique);
  }
  SortOptions o{.stable = true, .algorithm = "hybrid", .merge_variant = "host-levels=2"};
  check_pairs<float, std::uint32_t>(o, {5000}, dist::specials);
}
TEST(Hybrid, BadMergeVariant) {
  std::vector<std::uint32_t> v = {3, 1, 2};
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), {.algorithm = "hybrid", .merge_variant = "host-levels=x"}), Error);
  EXPECT_EQ(v, (std::vector<std::uint32_t>{3, 1, 2}));
}

}  // namespace
}  // namespace gpusort::test
