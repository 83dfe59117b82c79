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

// Keys per work-item chosen so the O(TILE^2) tile sorts keep small tiles; "blocked" keeps its keys
// in registers: 16 per work-item for keys up to 4 bytes, 8 for 8-byte keys, so a 256-wide tile of
// pairs fits 48 KiB of local memory.
constexpr MergeVariantItems kSm90LocalItems[] = {
    {"blocked", 16}, {"merge", 4}, {"bitonic", 4}, {"rank", 2}, {"odd-even", 2}, {"bubble", 8},
};
// Outputs per work-item (blocked, path) or cache keys per work-item (cached, hashed).
constexpr MergeVariantItems kSm90MergeItems[] = {
    {"blocked", 16}, {"path", 8}, {"rank", 1}, {"half", 1}, {"cached", 4}, {"hashed", 4},
};

// Group sizes measured on the H100 (2026-11-24), the value batch on the H200 (2026-11-26).
constexpr MergeTuning kSm90{
    .name = "sm90-h200",
    .device_class = "cuda:sm_90:H200",
    .measured_on = "cuda:sm_90:H100 (group sizes), cuda:sm_90:H200 (value batch)",
    .note = "groups of 256, 512 for blocked sorts whose tiles stay 4096 keys; blocked 16 keys per work-item "
            "(8 of 8 bytes); 4 value loads at once",
    .group = 256,
    .blocked_wide_group = 512,
    .blocked_wide_group_keys_from = 1ull << 25,
    .blocked_value_batch = 4,
    .local_items = kSm90LocalItems,
    .merge_items = kSm90MergeItems,
    .blocked_wide_key_items = 8,
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

std::span<const MergeTuning> merge_tuning_rows() { return kRows; }

const MergeTuning& merge_tuning_for(const DeviceDescription& desc) {
  return tuning_row_for(std::span<const MergeTuning>(kRows), desc);
}

std::uint32_t variant_items(std::span<const MergeVariantItems> items, const char* variant) {
  for (const MergeVariantItems& v : items)
    if (std::string_view(v.variant) == variant) return v.items;
  throw Error(errc::invalid_argument, std::string("merge tuning: no keys per work-item for variant '") + variant + "'");
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
