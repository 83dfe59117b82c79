// Partition sort over several contexts. On a machine with one device the contexts share it, which
// still exercises the concurrent chunk sorts, the rank splits and the concurrent bucket sorts.
#include "algorithms/planner.hpp"
#include "api/out_of_core.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

std::vector<Context> make_contexts(std::size_t count) {
  std::vector<Context> out;
  auto devices = list_devices();
  for (std::size_t i = 0; i < count; ++i) out.emplace_back(devices[i % devices.size()].id);
  return out;
}

std::vector<Context*> pointers(std::vector<Context>& contexts) {
  std::vector<Context*> p;
  for (auto& c : contexts) p.push_back(&c);
  return p;
}

template <class K>
void check_keys(std::size_t devices, std::size_t n, dist d, order o) {
  auto contexts = make_contexts(devices);
  auto ptrs = pointers(contexts);
  const std::uint64_t seed = fresh_seed();
  auto input = make_keys<K>(n, d, seed);
  auto out = input;
  SortReport r = sort(std::span<Context* const>(ptrs), std::span<K>(out), {.order = o});
  ASSERT_TRUE(keys_sorted_like_reference(input, out, o, false))
      << "devices=" << devices << " n=" << n << " dist=" << dist_name(d) << " seed=" << seed;
  if (devices > 1 && n >= 2 * devices) EXPECT_EQ(r.chunks, devices);
}

TEST(MultiDevice, KeysEveryDistribution) {
  for (dist d : all_dists) {
    check_keys<std::uint32_t>(3, 20011, d, order::ascending);
    check_keys<float>(2, 9999, d, order::descending);
  }
  check_keys<std::int64_t>(4, 50000, dist::uniform, order::descending);
  check_keys<std::uint8_t>(3, 7777, dist::uniform, order::ascending);
  check_keys<double>(2, 1, dist::uniform, order::ascending);
  check_keys<std::uint16_t>(5, 3, dist::uniform, order::ascending);
}

// The plan of a sort on several devices is what runs: its chunks (at most an equal share per
// device) are the chunks the partition sort sorts, by the plan's algorithm.
TEST(MultiDevice, RunsThePlansChunks) {
  auto contexts = make_contexts(3);
  auto ptrs = pointers(contexts);
  std::vector<rt::Device*> devices;
  for (Context* c : ptrs) devices.push_back(&c->runtime_device());
  const std::size_t n = 30000;
  const algo::Plan plan = algo::make_plan({.type = key_type::u32, .n = n}, std::span<rt::Device* const>(devices));
  EXPECT_EQ(plan.chunks.count, 3u);
  auto keys = make_keys<std::uint32_t>(n, dist::uniform, fresh_seed());
  const SortReport r = sort(std::span<Context* const>(ptrs), std::span<std::uint32_t>(keys), {});
  EXPECT_EQ(r.chunks, plan.chunks.count);
  EXPECT_EQ(r.algorithm, plan.algorithm->name);
}

TEST(MultiDevice, StablePairs) {
  auto contexts = make_contexts(3);
  auto ptrs = pointers(contexts);
  for (order o : {order::ascending, order::descending}) {
    for (dist d : {dist::few_unique, dist::specials, dist::all_equal}) {
      const std::uint64_t seed = fresh_seed();
      auto input = make_keys<float>(30001, d, seed);
      auto keys = input;
      auto values = index_values<std::uint32_t>(keys.size());
      sort_pairs(std::span<Context* const>(ptrs), std::span<float>(keys), std::span<std::uint32_t>(values),
                 {.order = o, .stable = true});
      ASSERT_TRUE(pairs_sorted_like_reference(input, keys, values, o, true)) << dist_name(d) << " seed=" << seed;
    }
  }
}

// Stable pairs with a budget that gives every device several chunks (so each runs the three-set
// pipeline) and heavy duplicates (u8 keys: buckets cut inside runs of equal keys).
TEST(MultiDevice, SeveralChunksPerDeviceStayStable) {
  auto contexts = make_contexts(3);
  auto ptrs = pointers(contexts);
  for (order o : {order::ascending, order::descending}) {
    const std::uint64_t seed = fresh_seed();
    auto input = make_keys<std::uint8_t>(300007, dist::uniform, seed);
    auto keys = input;
    auto values = index_values<std::uint32_t>(keys.size());
    SortOptions opt{.order = o, .stable = true};
    opt.device_memory_limit = detail::pipeline_bytes(300007 / 12, 1, 4);
    SortReport rep = sort_pairs(std::span<Context* const>(ptrs), std::span<std::uint8_t>(keys),
                                std::span<std::uint32_t>(values), opt);
    EXPECT_GE(rep.chunks, 9u);
    ASSERT_TRUE(pairs_sorted_like_reference(input, keys, values, o, true)) << "seed=" << seed;
  }
}

TEST(MultiDevice, AFailingBucketLeavesTheInputUnchanged) {
  auto contexts = make_contexts(2);
  auto ptrs = pointers(contexts);
  auto input = make_keys<std::uint32_t>(10000, dist::uniform, fresh_seed());
  auto keys = input;
  EXPECT_THROW(sort(std::span<Context* const>(ptrs), std::span<std::uint32_t>(keys), {.stable = true, .algorithm = "bitonic"}),
               Error);
  EXPECT_EQ(keys, input);
  std::vector<Context*> none;
  EXPECT_THROW(sort(std::span<Context* const>(none), std::span<std::uint32_t>(keys)), Error);
}

}  // namespace
}  // namespace gpusort::test
