// batcher-recursive / batcher-iterative (Batcher's odd-even merge network on the host): every key
// type, both orders, any n (padding), pairs of every value width (permutation), stable refused.
#include "algorithms/seeds_test_support.hpp"

namespace gpusort::test {
namespace {
using namespace seeds;

template <class T>
class BatcherKeys : public ::testing::Test {};
TYPED_TEST_SUITE(BatcherKeys, AllKeyTypes);

TYPED_TEST(BatcherKeys, RecursiveMatrix) {
  check_keys_matrix<TypeParam>({.algorithm = "batcher-recursive"}, interesting_sizes(64, 1 << 12, fresh_seed()));
}
TYPED_TEST(BatcherKeys, IterativeMatrix) {
  check_keys_matrix<TypeParam>({.algorithm = "batcher-iterative"}, interesting_sizes(64, 1 << 12, fresh_seed()));
}

TEST(Batcher, EverySizeUpTo70) {
  for (const char* a : {"batcher-recursive", "batcher-iterative"}) {
    std::vector<std::size_t> sizes;
    for (std::size_t n = 0; n <= 70; ++n) sizes.push_back(n);
    check_keys_matrix<std::int16_t>({.algorithm = a}, sizes, {dist::uniform, dist::reverse, dist::few_unique});
  }
}
TEST(Batcher, PairsEveryValueWidth) {
  check_value_widths({.algorithm = "batcher-recursive"}, {3, 100, 1025, 5000});
  check_value_widths({.algorithm = "batcher-iterative"}, {3, 100, 1025, 5000});
}
TEST(Batcher, StableRequestIsAnError) {
  expect_stable_refused("batcher-recursive");
  expect_stable_refused("batcher-iterative");
}

}  // namespace
}  // namespace gpusort::test
