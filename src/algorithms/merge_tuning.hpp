#pragma once
// Merge sort tuning as data: one row per class of devices (device_class, gpusort/device.hpp), the
// first match winning, a generic row last; and the override seam gpusort-bench's --merge-policy and
// the tests use (no environment knobs). Internal.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpusort/device.hpp"

namespace gpusort::algo {

// A variant's keys per work-item when SortOptions::items_per_thread is 0, before merge_sort.cpp
// halves them to fit the device's local memory: for the tile sorts, outputs per work-item of the
// blocked and path passes, cache keys per work-item of the cached and hashed ones (rank and half
// take one key each).
struct MergeVariantItems {
  const char* variant;  // a name of merge::local_variants() or merge::merge_variants()
  std::uint32_t items;
};

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
  std::span<const MergeVariantItems> local_items;  // every local variant's, the default first
  std::span<const MergeVariantItems> merge_items;  // every merge variant's, the default first
  // the blocked tile sort and pass keep their keys in registers: at most this many of more than 4 bytes
  std::uint32_t blocked_wide_key_items;
};

// A variant's row of `items` (local_items or merge_items); Error(invalid_argument) for a name the
// row lacks (every row names every variant, which a test checks).
std::uint32_t variant_items(std::span<const MergeVariantItems> items, const char* variant);

// Every row, the first match winning.
std::span<const MergeTuning> merge_tuning_rows();
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
