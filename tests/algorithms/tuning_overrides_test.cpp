// The merge sort's tuning rows and the merge and distributed sorts' override seams (merge_tuning.hpp,
// dist/dist_policy.hpp): values come from the device's row or the override, never the environment.
#include <gtest/gtest.h>

#include <cstdlib>

#include "algorithms/merge_sort.hpp"
#include "algorithms/merge_tuning.hpp"
#include "dist/dist_policy.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

DeviceDescription cuda_device(const char* name) {
  DeviceDescription d;
  d.backend = "cuda", d.vendor = "NVIDIA Corporation", d.name = name, d.architecture = "sm_90", d.is_gpu = true;
  return d;
}

TEST(MergeTuning, RowsPickedByDeviceClass) {
  EXPECT_STREQ(merge_tuning_for(cuda_device("NVIDIA H200")).name, "sm90-h200");
  EXPECT_STREQ(merge_tuning_for(cuda_device("NVIDIA H100 80GB HBM3")).name, "sm90-h100");
  EXPECT_STREQ(merge_tuning_for(cuda_device("NVIDIA GH200 480GB")).name, "generic");
  EXPECT_STREQ(merge_tuning_for(DeviceDescription{}).name, "generic");  // a CPU
  EXPECT_EQ(merge_tuning_for(cuda_device("NVIDIA H200")).blocked_value_batch, 4u);
}

// Every row names every variant's keys per work-item; today every row holds the values the
// variants had as constants before they became rows (unchanged on every device).
TEST(MergeTuning, EveryRowNamesEveryVariantsItems) {
  const std::pair<const char*, std::uint32_t> local[] = {{"blocked", 16}, {"merge", 4}, {"bitonic", 4},
                                                         {"rank", 2},     {"odd-even", 2}, {"bubble", 8}};
  const std::pair<const char*, std::uint32_t> pass[] = {{"blocked", 16}, {"path", 8},   {"rank", 1},
                                                        {"half", 1},     {"cached", 4}, {"hashed", 4}};
  ASSERT_EQ(merge::local_variants().size(), std::size(local));
  ASSERT_EQ(merge::merge_variants().size(), std::size(pass));
  for (const MergeTuning& row : merge_tuning_rows()) {
    for (const auto& [name, items] : local) EXPECT_EQ(variant_items(row.local_items, name), items) << row.name << " " << name;
    for (const auto& [name, items] : pass) EXPECT_EQ(variant_items(row.merge_items, name), items) << row.name << " " << name;
    for (const std::string& v : merge::local_variants()) EXPECT_NO_THROW(variant_items(row.local_items, v.c_str())) << v;
    for (const std::string& v : merge::merge_variants()) EXPECT_NO_THROW(variant_items(row.merge_items, v.c_str())) << v;
    EXPECT_STREQ(row.local_items[0].variant, merge::local_variants()[0].c_str());  // the default first
    EXPECT_STREQ(row.merge_items[0].variant, merge::merge_variants()[0].c_str());
    EXPECT_EQ(row.blocked_wide_key_items, 8u);
  }
  EXPECT_THROW(variant_items(merge_tuning_rows()[0].local_items, "no-such"), Error);
}

TEST(MergeTuning, ValueBatchFromTheRowOrTheOverride) {
  const DeviceDescription h200 = cuda_device("NVIDIA H200");
  // the environment no longer reaches it (GPUSORT_MERGE_VALUE_BATCH was read on the release path)
  ::setenv("GPUSORT_MERGE_VALUE_BATCH", "1", 1);
  EXPECT_EQ(merge::blocked_value_batch_define(h200, 8), "BLOCKED_VALUE_BATCH=4");
  ::unsetenv("GPUSORT_MERGE_VALUE_BATCH");
  EXPECT_EQ(merge::blocked_value_batch_define(h200, 6), "BLOCKED_VALUE_BATCH=2");  // a divisor of the items
  set_merge_policy_override(parse_merge_policy_override("blocked_value_batch=8"));
  EXPECT_EQ(merge::blocked_value_batch_define(h200, 16), "BLOCKED_VALUE_BATCH=8");
  EXPECT_EQ(merge::blocked_value_batch_define(h200, 4), "BLOCKED_VALUE_BATCH=4");
  set_merge_policy_override({});
  EXPECT_EQ(merge::blocked_value_batch_define(h200, 16), "BLOCKED_VALUE_BATCH=4");
  EXPECT_FALSE(parse_merge_policy_override("").blocked_value_batch.has_value());
  for (const char* bad : {"blocked_value_batch=0", "blocked_value_batch=65", "batch=2", "blocked_value_batch", "blocked_value_batch=x"})
    EXPECT_THROW(parse_merge_policy_override(bad), Error) << bad;
}

TEST(DistPolicy, OverrideParses) {
  EXPECT_EQ(dist::parse_dist_policy_override("recv_align=64").recv_align, 64u);
  EXPECT_FALSE(dist::parse_dist_policy_override("").recv_align.has_value());
  for (const char* bad : {"recv_align=0", "recv_align=3", "recv_align=8192", "align=4", "recv_align="})
    EXPECT_THROW(dist::parse_dist_policy_override(bad), Error) << bad;
  dist::set_dist_policy_override({.recv_align = 32});
  EXPECT_EQ(dist::dist_policy_override().recv_align, 32u);
  dist::set_dist_policy_override({});
  EXPECT_EQ(dist::kRecvAlign, 256u);
}

}  // namespace
}  // namespace gpusort::algo
