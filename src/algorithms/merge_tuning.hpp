#pragma once
// Merge sort tuning as data: one row per class of devices (device_class, gpusort/device.hpp), the
// first match winning, a generic row last; and the override seam gpusort-bench's --merge-policy and
// the tests use (no environment knobs). Internal.
#include <cstdint>
#include <optional>
#include <string_view>

#include "gpusort/device.hpp"

namespace gpusort::algo {

struct MergeTuning {
  const char* name;          // the row's name
  const char* device_class;  // the classes it serves: a device_class() or a prefix of one ending at a ':'; "" any
  const char* measured_on;   // the device class(es) its values were measured on
  const char* note;          // what the row is, in one line
  std::uint32_t group;       // work-items per group when SortOptions::work_group_size is 0
  // the blocked sort of keys of up to 4 bytes: this group with values, and alone from wide_group_keys_from keys
  std::uint32_t blocked_wide_group;
  std::uint64_t blocked_wide_group_keys_from;
  std::uint32_t blocked_value_batch;  // value loads a blocked merge's gather issues together (BLOCKED_VALUE_BATCH)
};

// The row for a device: the first whose class matches device_class(desc).
const MergeTuning& merge_tuning_for(const DeviceDescription& desc);

// Tests and gpusort-bench only: a set field replaces the row's value.
struct MergePolicyOverride {
  std::optional<std::uint32_t> blocked_value_batch;  // 1-64; a divisor of the pass's items is taken
};
// The process-wide override (none by default). Not synchronised: set it before sorting.
void set_merge_policy_override(const MergePolicyOverride& o);
const MergePolicyOverride& merge_policy_override();
// "blocked_value_batch=2": gpusort-bench --merge-policy. Throws Error(invalid_argument) on an unknown
// name or a bad value.
MergePolicyOverride parse_merge_policy_override(std::string_view spec);

}  // namespace gpusort::algo
