// Host sorts keep every device buffer within the device's largest single allocation
// (DeviceDescription::max_buffer_bytes), sorting in chunks when the data would need a larger one,
// even with plenty of memory. The tests lower the limit through the planner's test seam instead of
// sorting gigabytes.
#include "algorithms/algorithm.hpp"
#include "api/out_of_core.hpp"
#include "api/sort_pipeline.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

// Plans (and sorts) as if no device allocated more than `bytes` in one buffer, while alive.
class MaxBufferOverride {
 public:
  explicit MaxBufferOverride(std::uint64_t bytes) { detail::set_max_buffer_bytes_for_testing(bytes); }
  ~MaxBufferOverride() { detail::set_max_buffer_bytes_for_testing(0); }
  MaxBufferOverride(const MaxBufferOverride&) = delete;
  MaxBufferOverride& operator=(const MaxBufferOverride&) = delete;
};

constexpr std::uint64_t kLimit = 256 * 1024;

TEST(MaxBuffer, DevicesReportTheirLargestAllocation) {
  for (const auto& d : list_devices()) {
    EXPECT_GT(d.max_buffer_bytes, 0u) << d.id;
    EXPECT_LE(d.max_buffer_bytes, d.global_memory_bytes) << d.id;
  }
}

TEST(MaxBuffer, OverrideLowersTheLimitAndGoesAway) {
  const DeviceDescription& desc = test_context().device();
  {
    MaxBufferOverride limit(kLimit);
    EXPECT_EQ(detail::max_buffer_bytes(desc), kLimit);
  }
  EXPECT_EQ(detail::max_buffer_bytes(desc), desc.max_buffer_bytes);
}

TEST(MaxBuffer, PlanKeepsEveryBufferWithinTheLimit) {
  const std::uint64_t budget = std::uint64_t(1) << 40;  // memory is no constraint
  for (std::size_t kb : {1, 4, 8}) {
    for (std::size_t vb : {0, 4, 16}) {
      const std::uint64_t n = 1000003;
      EXPECT_FALSE(detail::fits_in_one_piece(n, kb, vb, budget, kLimit)) << kb << "/" << vb;
      EXPECT_TRUE(detail::fits_in_one_piece(n, kb, vb, budget, ~std::uint64_t(0))) << kb << "/" << vb;
      const auto plan = detail::plan_chunks(n, kb, vb, budget, kLimit);
      EXPECT_LE(detail::largest_buffer_bytes(plan.chunk, kb, vb), kLimit) << kb << "/" << vb;
      EXPECT_GE(plan.chunk * plan.count, n);
      // Chunks about as large as the limit allows (pool rounding may halve them), no smaller.
      EXPECT_GE(plan.chunk * 2 * std::max(kb, vb), kLimit / 2) << kb << "/" << vb << " chunk " << plan.chunk;
    }
  }
}

TEST(MaxBuffer, KeysSortInChunksThatFit) {
  MaxBufferOverride limit(kLimit);
  const std::uint64_t seed = fresh_seed();
  const auto input = make_keys<std::uint32_t>(300001, dist::uniform, seed);
  auto out = input;
  const SortReport rep = sort(test_context(), std::span<std::uint32_t>(out), {.stable = true, .algorithm = "radix"});
  EXPECT_GE(rep.chunks, (input.size() * 4 + kLimit - 1) / kLimit);
  EXPECT_TRUE(keys_sorted_like_reference(input, out, order::ascending, true)) << "seed=" << seed;
}

// Pairs of K keys and u32 values, sorted under the lowered limit in as many chunks as the values'
// buffers need at least, checked against a stable reference.
template <class K>
void expect_pairs_sort_in_chunks(std::size_t n, order o, const char* algorithm) {
  MaxBufferOverride limit(kLimit);
  const std::uint64_t seed = fresh_seed();
  const auto input = make_keys<K>(n, dist::uniform, seed);
  auto keys = input;
  auto values = index_values<std::uint32_t>(keys.size());
  const SortReport rep = sort_pairs(test_context(), std::span<K>(keys), std::span<std::uint32_t>(values),
                                    {.order = o, .stable = true, .algorithm = algorithm});
  EXPECT_GE(rep.chunks, (input.size() * 4 + kLimit - 1) / kLimit) << algorithm;
  EXPECT_TRUE(pairs_sorted_like_reference(input, keys, values, o, true)) << algorithm << " seed=" << seed;
}

TEST(MaxBuffer, PairsSortInChunksThatFitTheWiderField) {
  // u8 keys with u32 values: the values' buffers are the largest.
  expect_pairs_sort_in_chunks<std::uint8_t>(200003, order::descending, "merge");
}

// Several steps share one temporary storage, and an algorithm's temporaries in one piece can be
// about twice an array's buffer (radix pairs: a keys and a values area): the planner's chunks keep
// that within the limit too, and steps larger than that are refused before any copy.
TEST(MaxBuffer, SharedTemporariesOfSeveralStepsStayWithinTheLimit) {
  rt::Device& device = test_context().runtime_device();
  for (const char* name : {"radix", "merge"}) {
    const algo::Algorithm* algorithm = algo::find(name);
    ASSERT_NE(algorithm, nullptr) << name;
    const SortOptions options{.stable = true, .algorithm = name};
    auto steps_of = [](std::uint64_t m) {
      return std::vector<detail::SortStep>(2, detail::SortStep{{{nullptr, nullptr, static_cast<std::size_t>(m)}}, nullptr, nullptr});
    };
    MaxBufferOverride limit(kLimit);
    const auto plan = detail::plan_chunks(300001, 4, 4, std::uint64_t(1) << 40, kLimit);
    ASSERT_GE(plan.count, 2u);
    const std::uint64_t need = detail::shared_temporary_bytes(device, *algorithm, key_type::u32, 4, options, steps_of(plan.chunk));
    EXPECT_GT(need, 0u) << name;
    EXPECT_LE(need, kLimit) << name;
    // Chunks as large as the array buffers alone would allow (kLimit / 4 u32 elements): refused.
    try {
      detail::shared_temporary_bytes(device, *algorithm, key_type::u32, 4, options, steps_of(kLimit / 4));
      ADD_FAILURE() << name << ": expected out_of_memory";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
      EXPECT_NE(std::string(e.what()).find("in one buffer"), std::string::npos) << e.what();
    }
  }
}

TEST(MaxBuffer, RadixPairsSortInChunksThatFit) {
  // the chunks the shared temporaries allow (SharedTemporariesOfSeveralStepsStayWithinTheLimit)
  expect_pairs_sort_in_chunks<std::uint32_t>(300001, order::ascending, "radix");
}

TEST(MaxBuffer, TooSmallForTheSmallestChunkIsOutOfMemory) {
  MaxBufferOverride limit(1024);  // less than 1024 values of 4 bytes
  auto keys = make_keys<std::uint32_t>(50000, dist::uniform, fresh_seed());
  auto values = index_values<std::uint32_t>(keys.size());
  const auto keys_before = keys;
  const auto values_before = values;
  try {
    sort_pairs(test_context(), std::span<std::uint32_t>(keys), std::span<std::uint32_t>(values));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), errc::out_of_memory) << e.what();
    EXPECT_NE(std::string(e.what()).find("in one buffer"), std::string::npos) << e.what();
  }
  EXPECT_EQ(keys, keys_before);
  EXPECT_EQ(values, values_before);
}

}  // namespace
}  // namespace gpusort::test
