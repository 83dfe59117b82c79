// Radix sort's single work-group path (kernels/radix_single_group.cl): every n up to its capacity
// is sorted by one launch in local memory. Through the public API with algorithm "radix": every key
// type x sizes up to the capacity x distributions (float specials, few-unique, all-equal: skipped
// passes) x both orders; pairs of every value width with value = index (stability); the path is
// really taken (no temporary storage), the single_group_max override; and the driver called
// directly, so the kernel is checked even where radix_sort chooses another path.
#include <string>

#include "algorithms/drivers.hpp"
#include "algorithms/radix_policy.hpp"
#include "gpusort/device_array.hpp"
#include "support/key_types.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

const char* const kRadix = "radix";

std::size_t capacity(key_type type, std::size_t value_bytes) {
  return algo::radix_single_group_capacity(test_context().runtime_device(), type, value_bytes, SortOptions{});
}

// interesting_sizes around the GPU group (256) and the small cases the kernel's chunking meets:
// fewer keys than work-items, one key per work-item +-1, the capacity and one below it.
std::vector<std::size_t> single_sizes(std::size_t cap) {
  std::vector<std::size_t> s;
  for (std::size_t n : interesting_sizes(256, cap, fresh_seed()))
    if (n >= 2) s.push_back(n);
  for (std::size_t n : {2, 3, 15, 16, 17, 31, 32, 33, 255, 257})
    if (n <= cap) s.push_back(n);
  s.push_back(cap - 1);
  s.push_back(cap);
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  return s;
}

// CUDA devices sort these sizes with radix_single_tile (radix_policy.cpp) first: switched off here so
// that this portable kernel is what these tests check on every backend.
class RadixSingleGroup : public ::testing::Test {
  algo::ScopedRadixPolicyOverride cuda_single_tile_off_{{.single_tile_max = 0}};
};
// The fixture's override with the single work-group path capped at max_n.
algo::RadixPolicyOverride single_group_max(std::uint64_t max_n) {
  algo::RadixPolicyOverride o = algo::radix_policy_override();
  o.single_group_max = max_n;
  return o;
}
template <class T>
class RadixSingleGroupKeys : public RadixSingleGroup {};
TYPED_TEST_SUITE(RadixSingleGroupKeys, AllKeyTypes);

TYPED_TEST(RadixSingleGroupKeys, Matrix) {
  const std::size_t cap = capacity(key_type_of<TypeParam>::value, 0);
  ASSERT_GE(cap, 257u) << "the single work-group path should take at least a few hundred keys";
  SortOptions o{.stable = true, .algorithm = kRadix};
  check_keys_matrix<TypeParam>(o, single_sizes(cap));
}

TEST_F(RadixSingleGroup, PairsEveryValueWidth) {
  SortOptions o{.stable = true, .algorithm = kRadix};
  auto sizes = [](key_type t, std::size_t vb) { return single_sizes(capacity(t, vb)); };
  check_pairs<std::uint32_t, std::uint8_t>(o, {2, 3, 33, 200, 255}, dist::few_unique);
  check_pairs<std::uint32_t, std::uint16_t>(o, sizes(key_type::u32, 2), dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes(key_type::u32, 4), dist::few_unique);
  check_pairs<std::uint32_t, std::uint32_t>(o, sizes(key_type::u32, 4), dist::entropy);
  check_pairs<float, std::uint64_t>(o, sizes(key_type::f32, 8), dist::specials);
  check_pairs<std::int64_t, Bytes16>(o, sizes(key_type::i64, 16), dist::few_unique);
  check_pairs<double, std::uint32_t>(o, sizes(key_type::f64, 4), dist::specials);
  check_pairs<std::uint8_t, std::uint32_t>(o, sizes(key_type::u8, 4), dist::uniform);
  check_pairs<std::int16_t, std::uint64_t>(o, sizes(key_type::i16, 8), dist::all_equal);
  check_pairs<std::uint64_t, Bytes16>(o, sizes(key_type::u64, 16), dist::sorted);
}

// The driver on its own (the kernel is checked even if radix_sort's choice changes).
TEST_F(RadixSingleGroup, DriverDirectly) {
  Context& ctx = test_context();
  rt::Device& dev = ctx.runtime_device();
  const SortOptions asc{.stable = true}, desc{.order = order::descending, .stable = true};
  for (const SortOptions* o : {&asc, &desc}) {
    for (std::size_t n : single_sizes(capacity(key_type::i32, 4))) {
      const std::uint64_t seed = fresh_seed();
      const auto input = make_keys<std::int32_t>(n, dist::few_unique, seed);
      auto values = index_values<std::uint32_t>(n);
      DeviceArray<std::int32_t> dk(ctx, std::span<const std::int32_t>(input));
      DeviceArray<std::uint32_t> dv(ctx, std::span<const std::uint32_t>(values));
      algo::SortJob job{dev, key_type::i32, n, 4, dk.buffer().runtime_buffer(), &dv.buffer().runtime_buffer(), *o};
      ASSERT_TRUE(algo::radix_single_group_fits(job)) << n;
      algo::radix_single_group_sort(job);
      std::vector<std::int32_t> keys(n);
      dk.download(keys);
      dv.download(values);
      ASSERT_TRUE(pairs_sorted_like_reference(input, keys, values, o->order, true)) << "n=" << n << " seed=" << seed;
    }
  }
}

// The path is really taken: no temporary storage up to the capacity, some just above it.
TEST_F(RadixSingleGroup, NoTemporariesUpToCapacity) {
  Context& ctx = test_context();
  const SortOptions o{.algorithm = kRadix};
  for (auto [type, vb] : {std::pair{key_type::u32, std::size_t(0)}, {key_type::u8, 1}, {key_type::f64, 16}}) {
    const std::size_t cap = capacity(type, vb);
    ASSERT_GE(cap, 257u);
    for (std::size_t n : {std::size_t(2), std::size_t(100), cap - 1, cap})
      EXPECT_EQ(temporary_storage_bytes(ctx, type, n, vb, o), 0u) << "n=" << n << " value bytes=" << vb;
    EXPECT_GT(temporary_storage_bytes(ctx, type, cap + 1, vb, o), 0u) << "n=" << cap + 1;
  }
  // a sort given zero bytes of caller storage works (it would throw if the multi-pass path ran)
  std::vector<std::uint32_t> host(1000);
  std::mt19937_64 rng(fresh_seed());
  for (auto& x : host) x = static_cast<std::uint32_t>(rng());
  DeviceArray<std::uint32_t> keys(ctx, std::span<const std::uint32_t>(host));
  DeviceBuffer none(ctx, 0);
  sort(ctx, keys, none, o);
  std::vector<std::uint32_t> back(host.size());
  keys.download(back);
  std::sort(host.begin(), host.end());
  EXPECT_EQ(back, host);
  // explicit tiling options ask for the multi-pass path
  EXPECT_GT(temporary_storage_bytes(ctx, key_type::u32, 100, 0, {.algorithm = kRadix, .work_group_size = 32}), 0u);
}

TEST_F(RadixSingleGroup, MaxKnob) {
  Context& ctx = test_context();
  const SortOptions o{.stable = true, .algorithm = kRadix};
  {
    const algo::ScopedRadixPolicyOverride off(single_group_max(0));
    EXPECT_EQ(capacity(key_type::u32, 0), 0u);
    EXPECT_GT(temporary_storage_bytes(ctx, key_type::u32, 100, 0, o), 0u);
  }
  const algo::ScopedRadixPolicyOverride small(single_group_max(100));
  EXPECT_EQ(capacity(key_type::u32, 0), 100u);
  EXPECT_EQ(temporary_storage_bytes(ctx, key_type::u32, 100, 0, o), 0u);
  EXPECT_GT(temporary_storage_bytes(ctx, key_type::u32, 101, 0, o), 0u);
  check_keys_matrix<std::uint32_t>(o, {99, 100, 101}, {dist::uniform, dist::few_unique});
  check_pairs<std::uint16_t, std::uint32_t>(o, {99, 100, 101}, dist::few_unique);
}

}  // namespace
}  // namespace gpusort::test
