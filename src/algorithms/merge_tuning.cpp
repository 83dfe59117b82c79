// The merge sort's tuning rows (merge_tuning.hpp). Measurements: lab/notes/merge-and-local-sorts.md.
#include "algorithms/merge_tuning.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string>

#include "algorithms/radix_tuning.hpp"
#include "core/override_list.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

// Group sizes measured on the H100 (2026-11-24), the value batch on the H200 (2026-11-26).
constexpr MergeTuning kSm90{
    .name = "sm90-h200",
    .device_class = "cuda:sm_90:H200",
    .measured_on = "cuda:sm_90:H100 (group sizes), cuda:sm_90:H200 (value batch)",
    .note = "groups of 256, 512 for blocked sorts whose tiles stay 4096 keys; 4 value loads at once",
    .group = 256,
    .blocked_wide_group = 512,
    .blocked_wide_group_keys_from = 1ull << 25,
    .blocked_value_batch = 4,
};

constexpr MergeTuning with_name(MergeTuning row, const char* name, const char* device_class, const char* note) {
  row.name = name, row.device_class = device_class, row.note = note;
  return row;
}

constexpr MergeTuning kRows[] = {
    kSm90,
    with_name(kSm90, "sm90-h100", "cuda:sm_90:H100", kSm90.note),
    // the shapes are fitted to each device's local memory; nothing else was measured elsewhere
    with_name(kSm90, "generic", "", "the sm_90 values: shapes fitted to the device's local memory"),
};

MergePolicyOverride g_override;

}  // namespace

const MergeTuning& merge_tuning_for(const DeviceDescription& desc) {
  const std::string cls = device_class(desc);
  for (const MergeTuning& row : kRows)
    if (tuning_class_matches(row.device_class, cls)) return row;
  return kRows[std::size(kRows) - 1];  // not reached: the last row matches every class
}

void set_merge_policy_override(const MergePolicyOverride& o) { g_override = o; }
const MergePolicyOverride& merge_policy_override() { return g_override; }

MergePolicyOverride parse_merge_policy_override(std::string_view spec) {
  MergePolicyOverride o;
  core::for_each_override(spec, "merge policy", [&](std::string_view name, std::uint64_t v, std::string_view) {
    if (name != "blocked_value_batch")
      throw Error(errc::invalid_argument, "merge policy: unknown name '" + std::string(name) +
                                              "' (src/algorithms/merge_tuning.hpp, MergePolicyOverride)");
    if (v < 1 || v > 64)
      throw Error(errc::invalid_argument, "merge policy: blocked_value_batch is 1 to 64, not " + std::to_string(v));
    o.blocked_value_batch = std::uint32_t(v);
  });
  return o;
}

}  // namespace gpusort::algo
