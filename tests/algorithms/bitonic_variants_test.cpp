// bitonic's launch plans (local_variant "global", "fused", "fused2"): same network, same result,
// for keys and pairs, around tiles and powers of two, with small work-groups so that many global
// steps run.
#include "algorithms/seeds_test_support.hpp"

namespace gpusort::test {
namespace {
using namespace seeds;

TEST(BitonicVariants, KeysAndPairs) {
  for (const char* v : {"global", "fused", "fused2"}) {
    SortOptions o{.algorithm = "bitonic", .local_variant = v};
    check_keys_matrix<std::uint32_t>(o, interesting_sizes(512, 1 << 14, fresh_seed()), {dist::uniform, dist::few_unique, dist::reverse});
    check_keys_matrix<double>(o, {1000, 5000}, {dist::specials});
    check_pairs<std::int64_t, Bytes16>(o, {3, 1025, 9000}, dist::uniform);
    check_pairs<float, std::uint64_t>(o, {3, 1025, 9000}, dist::specials);
  }
}
TEST(BitonicVariants, SmallGroupsManyGlobalSteps) {
  for (const char* v : {"global", "fused2"}) {
    for (std::size_t wg : {1, 4}) {
      SortOptions o{.algorithm = "bitonic", .work_group_size = wg, .local_variant = v};
      check_keys_matrix<std::uint32_t>(o, interesting_sizes(2 * wg, 3000, fresh_seed()), {dist::uniform, dist::few_unique});
    }
  }
}
TEST(BitonicVariants, UnknownVariantIsAnError) {
  std::vector<std::uint32_t> v = {3, 1, 2};
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), {.algorithm = "bitonic", .local_variant = "nope"}), Error);
  EXPECT_EQ(v, (std::vector<std::uint32_t>{3, 1, 2}));
}

}  // namespace
}  // namespace gpusort::test
