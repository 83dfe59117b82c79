// sort_with_indices (gpusort/argsort.hpp): the sorted keys and the permutation from one sort, as
// torch.sort returns them. Checked against the host's stable sort: the indices are the stable
// permutation, the sorted keys are the keys it picks, and the input keys are only read (unless they
// are the output too). Both paths: one step on the device, and chunks under a lowered buffer limit.
#include "algorithms/host_sizing.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

template <class K, class I>
void expect_sorted_with_indices(std::size_t n, dist d, order o, bool in_place = false) {
  const std::uint64_t seed = fresh_seed();
  const auto input = make_keys<K>(n, d, seed);
  auto keys = input;
  std::vector<K> sorted(n, K(7));
  std::vector<I> indices(n, I(~I(0)));  // poisoned: every index is written by the sort
  const SortOptions options{.order = o, .stable = true};
  if (in_place)
    sort_with_indices(test_context(), keys, keys, indices, options);
  else
    sort_with_indices(test_context(), keys, sorted, indices, options);
  const std::vector<K>& out = in_place ? keys : sorted;
  if (!in_place && n) EXPECT_EQ(std::memcmp(keys.data(), input.data(), n * sizeof(K)), 0) << "the keys were written";
  // the pairs (key, index) are the stable reference sort's, and each key is the one its index names
  EXPECT_TRUE(pairs_sorted_like_reference(input, out, indices, o, true)) << "n=" << n << " seed=" << seed;
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(std::memcmp(&out[i], &input[static_cast<std::size_t>(indices[i])], sizeof(K)), 0) << "at " << i;
}

TEST(SortWithIndices, FloatKeysBothOrdersBothIndexWidths) {
  for (order o : {order::ascending, order::descending}) {
    expect_sorted_with_indices<float, std::uint64_t>(100003, dist::few_unique, o);
    expect_sorted_with_indices<float, std::uint32_t>(4099, dist::uniform, o);
    expect_sorted_with_indices<double, std::uint64_t>(3001, dist::uniform, o);
  }
}

TEST(SortWithIndices, IntegerKeysAndInPlace) {
  expect_sorted_with_indices<std::int64_t, std::uint64_t>(50001, dist::few_unique, order::ascending);
  expect_sorted_with_indices<std::uint8_t, std::uint64_t>(20001, dist::uniform, order::descending);
  expect_sorted_with_indices<std::uint32_t, std::uint64_t>(30001, dist::few_unique, order::ascending, true);
}

TEST(SortWithIndices, NoneAndOneKey) {
  expect_sorted_with_indices<float, std::uint64_t>(0, dist::uniform, order::ascending);
  expect_sorted_with_indices<float, std::uint64_t>(1, dist::uniform, order::descending);
  expect_sorted_with_indices<std::uint16_t, std::uint32_t>(1, dist::uniform, order::ascending, true);
}

TEST(SortWithIndices, ChunksUnderALoweredBufferLimit) {
  detail::set_max_buffer_bytes_for_testing(256 * 1024);
  expect_sorted_with_indices<std::uint32_t, std::uint64_t>(300001, dist::few_unique, order::descending);
  detail::set_max_buffer_bytes_for_testing(0);
}

TEST(SortWithIndices, LengthsMustAgree) {
  std::vector<float> keys(5), sorted(4);
  std::vector<std::uint64_t> indices(5);
  EXPECT_THROW(sort_with_indices(test_context(), keys, sorted, indices), Error);
}

}  // namespace
}  // namespace gpusort::test
