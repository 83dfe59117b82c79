// section-merge (per-thread section sort, scatter-address merges): every key type, both orders,
// stability with every value width, section lengths giving odd section counts and a short last
// section.
#include "algorithms/seeds_test_support.hpp"

namespace gpusort::test {
namespace {
using namespace seeds;

template <class T>
class SectionMergeKeys : public ::testing::Test {};
TYPED_TEST_SUITE(SectionMergeKeys, AllKeyTypes);

TYPED_TEST(SectionMergeKeys, StableMatrix) {
  check_keys_matrix<TypeParam>({.stable = true, .algorithm = "section-merge"},
                               interesting_sizes(32, 1 << 14, fresh_seed()), some_dists);
}

TEST(SectionMerge, PairsStableEveryValueWidth) {
  check_value_widths({.stable = true, .algorithm = "section-merge"}, {3, 33, 1000, 4097, 30000});
}
TEST(SectionMerge, SectionLengths) {
  for (std::size_t s : {1, 2, 3, 7, 100}) {
    SortOptions o{.stable = true, .algorithm = "section-merge", .items_per_thread = s};
    check_keys_matrix<std::int32_t>(o, {1, 2, 5, 3 * s, 5 * s + 1, 7 * s - 1, 2049}, {dist::uniform, dist::few_unique});
    check_pairs<std::int32_t, std::uint32_t>(o, {5 * s + 1, 3001}, dist::few_unique);
  }
}
TEST(SectionMerge, LargerUniform) {
  check_pairs<std::uint32_t, std::uint32_t>({.stable = true, .algorithm = "section-merge"}, {(1 << 18) + 3}, dist::few_unique);
}

}  // namespace
}  // namespace gpusort::test
