// The planner (gpusort/plan.hpp, algorithms/planner.hpp): what a request plans to on the test
// device, that the plan's parts agree with what the sorts themselves report, and that every
// refusal comes from the one place requests are checked. No test here sorts: plans run nothing.
#include "gpusort/plan.hpp"

#include <algorithm>
#include <string>

#include "gpusort/sort.hpp"
#include "support/plan_refusal.hpp"
#include "support/test_support.hpp"

namespace gpusort::test {
namespace {

bool any_step_has(const SortPlan& p, const std::string& text) {
  return std::any_of(p.steps.begin(), p.steps.end(), [&](const std::string& s) { return s.find(text) != s.npos; });
}

TEST(Plan, HostKeysInOnePieceTakeRadixWithItsPasses) {
  const SortPlan p = plan(test_context(), {.type = key_type::u32, .n = std::uint64_t(1) << 20, .value_bytes = 4});
  EXPECT_EQ(p.algorithm, "radix");
  EXPECT_NE(p.path.find("one piece"), std::string::npos) << p.text();
  EXPECT_EQ(p.chunks, 1u);
  EXPECT_TRUE(any_step_has(p, "radix")) << p.text();
  EXPECT_TRUE(p.temp_bytes_known);
  EXPECT_GT(p.temporary_bytes, 0u);
  EXPECT_GE(p.device_bytes, (std::uint64_t(1) << 20) * 8) << "the keys and values themselves";
  EXPECT_EQ(p.device_class.empty(), false);
  const std::string text = p.text();
  for (const char* line : {"device: ", "algorithm: radix", "path: ", "step 1: ", "temporary bytes: "})
    EXPECT_NE(text.find(line), std::string::npos) << line << " missing from:\n" << text;
}

TEST(Plan, DeviceTemporariesMatchTheSizeQuery) {
  for (const std::uint64_t n : {std::uint64_t(5000), std::uint64_t(1) << 18}) {
    for (const char* algorithm : {"auto", "merge"}) {
      const SortOptions o{.algorithm = algorithm};
      const SortPlan p = plan(test_context(), {.type = key_type::u64, .n = n, .value_bytes = 8,
                                               .where = data_location::device, .options = o});
      EXPECT_NE(p.path.find("on the device"), std::string::npos) << p.text();
      EXPECT_EQ(p.temporary_bytes, temporary_storage_bytes(test_context(), key_type::u64, n, 8, o)) << p.text();
    }
  }
}

TEST(Plan, ABudgetBelowTheDataPlansChunksAndBuckets) {
  const SortOptions o{.algorithm = "merge", .device_memory_limit = 1 << 20};
  const SortPlan p = plan(test_context(), {.type = key_type::u32, .n = std::uint64_t(1) << 20, .options = o});
  EXPECT_EQ(p.algorithm, "merge");
  EXPECT_GT(p.chunks, 1u) << p.text();
  EXPECT_NE(p.path.find("chunks"), std::string::npos) << p.text();
  EXPECT_TRUE(any_step_has(p, "merge passes")) << p.text();
  EXPECT_TRUE(any_step_has(p, "buckets")) << p.text();
  EXPECT_LE(p.device_bytes, o.device_memory_limit) << "each chunk's step within the budget";
}

TEST(Plan, ArgsortMakesPositionsFirst) {
  const SortPlan p = plan(test_context(), {.type = key_type::f32, .n = 1000, .value_bytes = 8, .positions = true});
  ASSERT_FALSE(p.steps.empty());
  EXPECT_NE(p.steps.front().find("positions"), std::string::npos) << p.text();
}

TEST(Plan, AComparatorPlansTheMergeSort) {
  const SortOptions o{.comparator = "return (a & 255u) < (b & 255u);"};
  const SortPlan p = plan(test_context(), {.type = key_type::u32, .n = 100000, .options = o});
  EXPECT_EQ(p.algorithm, "merge");
  EXPECT_TRUE(any_step_has(p, "tile sort")) << p.text();
}

TEST(Plan, NothingToDoForOneElement) {
  const SortPlan p = plan(test_context(), {.type = key_type::i8, .n = 1});
  EXPECT_TRUE(p.steps.empty()) << p.text();
  EXPECT_NE(p.path.find("nothing to do"), std::string::npos);
}

// A distributed sort is planned for the share of one rank: the algorithm is chosen (and checked
// against its size limit) for ceil(n / ranks) elements, and that share is the plan's part.
TEST(Plan, ADistributedSortPlansTheShareOfOneRank) {
  const SortOptions o{.algorithm = "rank"};  // at most 65536 keys
  const SortPlan p = plan(test_context(), {.type = key_type::u32, .n = 200000, .ranks = 4, .options = o});
  EXPECT_EQ(p.algorithm, "rank");
  EXPECT_NE(p.path.find("distributed over 4 ranks"), std::string::npos) << p.text();
  EXPECT_NE(p.path.find("share of up to 50000 elements"), std::string::npos) << p.text();
  EXPECT_TRUE(any_step_has(p, "share: ")) << p.text();
  EXPECT_TRUE(any_step_has(p, "cuts: ")) << p.text();
  EXPECT_THROW(plan(test_context(), {.type = key_type::u32, .n = 200000, .ranks = 2, .options = o}), Error);
  const SortPlan device = plan(test_context(), {.type = key_type::u32, .n = 200000, .where = data_location::device,
                                                .ranks = 4, .options = o});
  EXPECT_TRUE(any_step_has(device, "merged")) << device.text();
}

TEST(Plan, RefusesWhatTheSortsRefuse) {
  expect_plan_refused({.type = key_type(77), .n = 10}, errc::invalid_argument, "key type");
  expect_plan_refused({.type = key_type::u32, .n = 10, .value_bytes = 3}, errc::invalid_argument, "3 bytes");
  expect_plan_refused({.type = key_type::u32, .n = 10, .value_bytes = 2, .positions = true}, errc::invalid_argument,
                      "4 or 8 bytes");
  expect_plan_refused({.type = key_type::u32, .n = 10, .where = data_location::device, .options = {.host_threads = 2}},
                      errc::invalid_argument, "host_threads");
  expect_plan_refused({.type = key_type::u32, .n = 10, .options = {.algorithm = "no-such"}}, errc::invalid_argument,
                      "unknown algorithm");
  expect_plan_refused({.type = key_type::u32, .n = 10, .options = {.stable = true, .algorithm = "bitonic"}},
                      errc::invalid_argument, "cannot sort stably");
  expect_plan_refused({.type = key_type::u32, .n = std::uint64_t(1) << 20, .options = {.algorithm = "rank"}},
                      errc::unsupported, "O(n^2)");
  expect_plan_refused({.type = key_type::u32, .n = 1000, .ranks = 2, .options = {.comparator = "return a < b;"}},
                      errc::unsupported, "comparator");
  expect_plan_refused({.type = key_type::u32, .n = 1000, .value_bytes = 4, .positions = true, .ranks = 2},
                      errc::unsupported, "argsort");
  expect_plan_refused({.n = 10, .record_bytes = 8, .record_fields = {{.offset = 4, .type = key_type::u64}}},
                      errc::invalid_argument, "does not fit a record");
  // a run-time order cannot cut buckets: a budget below the data refuses it, as the sort does
  expect_plan_refused({.type = key_type::u32, .n = std::uint64_t(1) << 20,
                       .options = {.comparator = "return a < b;", .device_memory_limit = 1 << 20}},
                      errc::unsupported, "comparator");
  // Segmented requests: rows that hold n (segmented_test.cpp plans the rest).
  expect_plan_refused({.type = key_type::u32, .n = 100, .rows = 4}, errc::invalid_argument, "rows x row length");
  // k belongs to a top-k (topk_select_test.cpp plans those).
  expect_plan_refused({.type = key_type::u32, .n = 100, .k = 5}, errc::invalid_argument, "SortRequest::topk");
}

}  // namespace
}  // namespace gpusort::test
