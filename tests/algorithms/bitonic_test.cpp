// Bitonic sort over the typed matrix: every key type x sizes around tiles and powers of two x
// distributions x both orders; pairs for every value width; the stable request is refused.
#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

template <class T>
class BitonicKeys : public ::testing::Test {};
TYPED_TEST_SUITE(BitonicKeys, AllKeyTypes);

TYPED_TEST(BitonicKeys, MatrixDefaultGroup) {
  check_keys_matrix<TypeParam>({.algorithm = "bitonic"}, interesting_sizes(512, 1 << 13, fresh_seed()));
}

TYPED_TEST(BitonicKeys, LargeUniform) {
  std::size_t n = (1 << 20) - 3 - fresh_seed() % 1000;
  check_keys_matrix<TypeParam>({.algorithm = "bitonic"}, {n}, {dist::uniform});
}

TEST(Bitonic, SmallWorkGroupsAndOddSizes) {
  for (std::size_t wg : {1, 2, 4, 32, 64}) {
    SortOptions o{.algorithm = "bitonic", .work_group_size = wg};
    check_keys_matrix<std::uint32_t>(o, interesting_sizes(2 * wg, 3000, fresh_seed()), {dist::uniform, dist::few_unique});
  }
}

TEST(Bitonic, PairsEveryValueWidth) {
  SortOptions o{.algorithm = "bitonic"};
  auto sizes = interesting_sizes(512, 5000, fresh_seed());
  check_pairs<std::uint32_t, std::uint8_t>(o, {1, 2, 200, 255}, dist::uniform);
  check_pairs<std::uint32_t, std::uint16_t>(o, sizes, dist::uniform);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes, dist::few_unique);
  check_pairs<float, std::uint64_t>(o, sizes, dist::specials);
  check_pairs<std::int64_t, Bytes16>(o, sizes, dist::uniform);
  check_pairs<double, std::uint32_t>(o, sizes, dist::specials);
  check_pairs<std::uint8_t, std::uint32_t>(o, sizes, dist::uniform);
}

TEST(Bitonic, StableRequestIsAnError) {
  std::vector<std::uint32_t> v = {3, 1, 2};
  auto before = v;
  try {
    sort(test_context(), std::span<std::uint32_t>(v), {.stable = true, .algorithm = "bitonic"});
    FAIL() << "bitonic accepted a stable request";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::invalid_argument);
    EXPECT_NE(std::string(e.what()).find("stabl"), std::string::npos) << e.what();
  }
  EXPECT_EQ(v, before);
}

TEST(Bitonic, BadWorkGroupSizeIsAnError) {
  std::vector<std::uint32_t> v = {3, 1, 2};
  auto before = v;
  EXPECT_THROW(sort(test_context(), std::span<std::uint32_t>(v), {.algorithm = "bitonic", .work_group_size = 3}), Error);
  EXPECT_EQ(v, before);
}

}  // namespace
}  // namespace gpusort::test
