// merge: a local tile sort, then global merge passes until one run (docs/algorithms/merge.md).
// Ping-pong: the tile sort runs in place when the number of passes is even and writes to the
// temporary pair when it is odd, so the last pass always lands in job.keys / job.values.
#include "algorithms/merge_sort.hpp"

#include <algorithm>
#include <cstdlib>

#include "algorithms/drivers.hpp"
#include "algorithms/merge_tuning.hpp"
#include "algorithms/order_check.hpp"
#include "runtime/kernel_sources.hpp"

namespace gpusort::algo {
namespace merge {
namespace {

// A variant and its kernel file; its default keys per work-item are the device's MergeTuning row's.
struct VariantFile {
  const char* name;
  const char* file;
};

// Local variants (the tile sorts), the default first.
constexpr VariantFile kLocal[] = {
    {"blocked", "merge_local_blocked.cl"}, {"merge", "merge_local_merge.cl"},
    {"bitonic", "merge_local_bitonic.cl"}, {"rank", "merge_local_rank.cl"},
    {"odd-even", "merge_local_odd_even.cl"}, {"bubble", "merge_local_bubble.cl"},
};
// Merge variants (the global passes), the default first.
constexpr VariantFile kMerge[] = {
    {"blocked", "merge_global_blocked.cl"}, {"path", "merge_global_path.cl"},
    {"rank", "merge_global_rank.cl"},       {"half", "merge_global_half.cl"},
    {"cached", "merge_global_cached.cl"},   {"hashed", "merge_global_hashed.cl"},
};

// field: the SortOptions field the name came from, for the error.
template <std::size_t N>
const VariantFile& lookup(const VariantFile (&table)[N], const std::string& name, const char* field) {
  if (name.empty()) return table[0];
  for (const auto& v : table)
    if (name == v.name) return v;
  std::string valid;
  for (const auto& v : table) valid += std::string(valid.empty() ? "" : ", ") + v.name;
  throw Error(errc::invalid_argument, std::string("SortOptions::") + field + " '" + name +
                                          "' is not a variant of algorithm 'merge' (valid: " + valid + ")");
}
constexpr const char* kLocalField = "local_variant";
constexpr const char* kMergeField = "merge_variant";

std::vector<std::string> names_of(const auto& table) {
  std::vector<std::string> out;
  for (const auto& v : table) out.push_back(v.name);
  return out;
}

// Largest local memory a kernel may declare statically (CUDA's static __shared__ limit is 48 KiB).
std::uint64_t local_budget(const rt::Device& device) {
  std::uint64_t limit = device.description().local_memory_bytes;
  if (limit == 0) limit = 32 * 1024;
  return std::min<std::uint64_t>(limit, 48 * 1024);
}

void check_items(std::uint64_t items) {
  if (items == 0 || items > 64 || (items & (items - 1)) != 0)
    throw Error(errc::invalid_argument, "SortOptions::items_per_thread must be 0 (the default) or a power of two "
                                        "from 1 to 64 for algorithm 'merge' (got " + std::to_string(items) + ")");
}

bool is_blocked(const std::string& variant) { return variant == "blocked"; }

// Local memory of a "blocked" kernel for `slots_for` keys: padded slots (kernels/merge_blocked.h:
// one per 32, one spare) of keys, and of 32-bit tile positions when there are values.
std::uint64_t blocked_local_bytes(std::uint64_t tile, std::size_t key_bytes, bool values) {
  return (tile + tile / 32 + 1) * (key_bytes + (values ? 4 : 0));
}

// Local memory a local variant's tile sort declares.
std::uint64_t local_sort_bytes(const std::string& variant, std::uint64_t tile, std::size_t key_bytes, bool values) {
  return is_blocked(variant) ? blocked_local_bytes(tile, key_bytes, values) : tile * (key_bytes + 4);
}

void check_local_bytes(const rt::Device& device, std::uint64_t bytes, const std::string& what) {
  if (bytes > local_budget(device))
    throw Error(errc::invalid_argument, "merge: " + what + " needs " + std::to_string(bytes) +
                                            " bytes of local memory, more than the device's " +
                                            std::to_string(local_budget(device)) +
                                            "; use a smaller SortOptions::work_group_size or "
                                            "SortOptions::items_per_thread");
}

// A variant's default keys per work-item for this key width (the device's MergeTuning row), halved
// while its local memory would not fit the device (a power of two, at least 1).
std::uint32_t fitted_items(const rt::Device& device, const VariantFile& v, bool local, key_type type,
                           std::size_t value_bytes, std::uint32_t group) {
  const std::size_t kb = key_size(type);
  const MergeTuning& row = merge_tuning_for(device.description());
  std::uint32_t items = variant_items(local ? row.local_items : row.merge_items, v.name);
  if (is_blocked(v.name) && kb > 4) items = std::min(items, row.blocked_wide_key_items);
  auto bytes = [&](std::uint32_t i) {
    const std::uint64_t slots = std::uint64_t(group) * i;
    if (is_blocked(v.name)) return blocked_local_bytes(slots, kb, value_bytes != 0);
    if (local) return slots * (kb + 4);
    if (std::string(v.name) == "path") return slots * (kb + 4) + 16;
    if (std::string(v.name) == "cached" || std::string(v.name) == "hashed") return slots * (kb + 4) + 16;
    return std::uint64_t(0);
  };
  while (items > 1 && bytes(items) > local_budget(device)) items /= 2;
  return items;
}

std::vector<std::string> with(std::vector<std::string> defines, std::initializer_list<std::string> more) {
  defines.insert(defines.end(), more);
  return defines;
}

// Work-groups of a "blocked" or "path" pass: each pair of runs spans ceil(2w / tile) of them.
std::uint64_t pair_groups(std::uint64_t n, std::uint64_t width, std::uint64_t tile) {
  return ceil_div(n, 2 * width) * ceil_div(2 * width, tile);
}

// Bytes of the "blocked" passes' split table: one u64 per work-group of the widest pass from
// `first_width` on (every later pass has at most as many groups plus one per pair).
std::uint64_t split_table_bytes(std::uint64_t n, std::uint64_t first_width, std::uint64_t merge_tile) {
  std::uint64_t most = 1;
  for (std::uint64_t w = first_width; w < n; w <<= 1) most = std::max(most, pair_groups(n, w, merge_tile));
  return most * 8;
}

}  // namespace

std::string blocked_value_batch_define(const DeviceDescription& desc, std::uint32_t items) {
  std::uint32_t batch =
      merge_policy_override().blocked_value_batch.value_or(merge_tuning_for(desc).blocked_value_batch);
  while (batch > 1 && (batch > items || items % batch != 0)) batch /= 2;
  return "BLOCKED_VALUE_BATCH=" + std::to_string(std::max<std::uint32_t>(batch, 1));
}

const std::vector<std::string>& local_variants() {
  static const std::vector<std::string> v = names_of(kLocal);
  return v;
}
const std::vector<std::string>& merge_variants() {
  static const std::vector<std::string> v = names_of(kMerge);
  return v;
}
std::string checked_local_variant(const std::string& name) { return lookup(kLocal, name, kLocalField).name; }
std::string checked_merge_variant(const std::string& name) { return lookup(kMerge, name, kMergeField).name; }
std::uint32_t default_local_items(const rt::Device& device, const std::string& variant, key_type type,
                                  std::size_t value_bytes, std::uint32_t group_size) {
  return fitted_items(device, lookup(kLocal, variant, kLocalField), true, type, value_bytes, group_size);
}
std::uint32_t default_merge_items(const rt::Device& device, const std::string& variant, key_type type,
                                  std::size_t value_bytes, std::uint32_t group_size) {
  return fitted_items(device, lookup(kMerge, variant, kMergeField), false, type, value_bytes, group_size);
}

void sort_tiles(SortJob& job, const std::string& local_variant, std::uint32_t group_size, std::uint32_t items) {
  sort_tiles_into(job, local_variant, group_size, items, job.keys, job.values_or_keys());
}

void sort_tiles_into(SortJob& job, const std::string& local_variant, std::uint32_t group_size, std::uint32_t items,
                     rt::Buffer& dst_keys, rt::Buffer& dst_values) {
  const VariantFile& v = lookup(kLocal, local_variant, kLocalField);
  check_items(items);
  const std::uint64_t tile = std::uint64_t(group_size) * items;
  check_local_bytes(job.device, local_sort_bytes(v.name, tile, key_size(job.type), job.values != nullptr),
                    "a tile of " + std::to_string(tile) + " keys");
  if (job.n == 0) return;
  rt::Program& program = job.program(v.file, with(job.key_defines(group_size), {"ITEMS=" + std::to_string(items)}));
  job.device.launch(program.kernel("merge_local_sort"), {ceil_div(job.n, tile), group_size},
                    {job.keys, job.values_or_keys(), dst_keys, dst_values, job.n, job.flip_arg()});
}

namespace {
// Validates a merge variant's items and local memory before anything runs.
void check_merge_resources(const SortJob& job, const std::string& name, std::uint32_t group_size,
                           std::uint32_t items) {
  if (name == "blocked" || name == "path" || name == "cached" || name == "hashed") check_items(items);
  const std::uint64_t slots = std::uint64_t(group_size) * items;
  if (name == "blocked")
    check_local_bytes(job.device, blocked_local_bytes(slots, key_size(job.type), job.values != nullptr),
                      "a merge tile of " + std::to_string(slots) + " keys");
  if (name == "path")
    check_local_bytes(job.device, slots * (key_size(job.type) + 4) + 16,
                      "a merge-path tile of " + std::to_string(slots) + " keys");
  if (name == "cached" || name == "hashed")
    check_local_bytes(job.device, slots * (key_size(job.type) + (name == "hashed" ? 4 : 0)) + 16,
                      "a cache of " + std::to_string(slots) + " keys");
}
}  // namespace

void merge_pass(SortJob& job, const std::string& merge_variant, rt::Buffer& src_keys, rt::Buffer& src_values,
                rt::Buffer& dst_keys, rt::Buffer& dst_values, std::uint64_t width, std::uint32_t group_size,
                std::uint32_t items, rt::Buffer* splits) {
  const VariantFile& v = lookup(kMerge, merge_variant, kMergeField);
  const std::string name = v.name;
  if (width == 0 || (width & (width - 1)) != 0)
    throw Error(errc::invalid_argument, "merge: run width " + std::to_string(width) + " is not a power of two");
  if ((name == "cached" || name == "hashed") && width < group_size)
    throw Error(errc::invalid_argument, "merge: the " + name + " merge needs runs of at least the work-group size");
  check_merge_resources(job, name, group_size, items);
  if (job.n == 0) return;
  auto defines = job.key_defines(group_size);
  const std::uint64_t n = job.n;
  std::uint64_t groups = ceil_div(n, group_size);
  if (name == "blocked" || name == "path") {
    defines.push_back("ITEMS=" + std::to_string(items));
    if (name == "blocked") defines.push_back(blocked_value_batch_define(job.device.description(), items));
    groups = pair_groups(n, width, std::uint64_t(group_size) * items);
  } else if (name == "cached" || name == "hashed") {
    defines.push_back("CACHE=" + std::to_string(std::uint64_t(group_size) * items));
  } else if (name == "half") {
    groups = ceil_div(ceil_div(n, 2 * width) * width, group_size);
  }
  rt::Program& program = job.program(v.file, defines);
  // rank, half, cached and hashed scatter their keys; path and blocked write every output slot
  if (name != "blocked" && name != "path") seed_scatter_destination(job, src_keys, dst_keys);
  if (name != "blocked") {
    job.device.launch(program.kernel("merge_pass"), {groups, group_size},
                      {src_keys, src_values, dst_keys, dst_values, n, width, job.flip_arg()});
    return;
  }
  rt::BufferPtr own_splits;
  if (splits == nullptr || splits->bytes() < groups * 8) {
    own_splits = job.temp(groups * 8);
    splits = own_splits.get();
  }
  job.device.launch(program.kernel("merge_partition"), {ceil_div(groups, group_size), group_size},
                    {src_keys, *splits, n, width, groups, job.flip_arg()});
  job.device.launch(program.kernel("merge_pass"), {groups, group_size},
                    {src_keys, src_values, dst_keys, dst_values, n, width, job.flip_arg(), *splits});
}

}  // namespace merge

void merge_check_variants(const SortOptions& options) {
  merge::checked_local_variant(options.local_variant);
  merge::checked_merge_variant(options.merge_variant);
}

namespace {
// The shape of one merge sort: variants, work-group size, keys per work-item of each phase.
struct MergePlan {
  std::string local, pass;
  std::uint32_t group = 0, local_items = 0, merge_items = 0;
  std::uint64_t tile = 0;  // keys per sorted tile: the first merge pass's run width
};

// Work-group size when SortOptions::work_group_size is 0 (the device's MergeTuning row): the wide
// group for the blocked sort of keys up to 4 bytes with values, whose tile stays 4096 keys (8 per
// work-item to fit local memory), and of such keys alone from the row's n (tiles of 8192: one pass
// fewer), below which twice the work-groups win; the row's group otherwise.
std::uint32_t preferred_group(const DeviceDescription& desc, const std::string& local, key_type type,
                              std::size_t value_bytes, std::uint64_t n) {
  const MergeTuning& t = merge_tuning_for(desc);
  if (!merge::is_blocked(local) || key_size(type) > 4) return t.group;
  return value_bytes != 0 || n >= t.blocked_wide_group_keys_from ? t.blocked_wide_group : t.group;
}

template <class Shape>  // SortJob or TempQuery
MergePlan plan_merge(const Shape& s) {
  MergePlan p;
  p.local = merge::checked_local_variant(s.options.local_variant);
  p.pass = merge::checked_merge_variant(s.options.merge_variant);
  p.group = checked_group_size(s.device, s.options.work_group_size, preferred_group(s.device.description(), p.local, s.type, s.value_bytes, s.n));
  const std::size_t requested = s.options.items_per_thread;
  merge::check_items(requested ? requested : 1);
  p.local_items = requested ? std::uint32_t(requested)
                            : merge::default_local_items(s.device, p.local, s.type, s.value_bytes, p.group);
  p.merge_items = requested ? std::uint32_t(requested)
                            : merge::default_merge_items(s.device, p.pass, s.type, s.value_bytes, p.group);
  p.tile = std::uint64_t(p.group) * p.local_items;
  return p;
}
}  // namespace

void merge_sort(SortJob& job) {
  if (job.n <= 1) return;
  const MergePlan p = plan_merge(job);
  merge::check_items(p.local_items);
  merge::check_local_bytes(job.device,
                           merge::local_sort_bytes(p.local, p.tile, key_size(job.type), job.values != nullptr),
                           "a tile of " + std::to_string(p.tile) + " keys");
  merge::check_merge_resources(job, p.pass, p.group, p.merge_items);

  int passes = 0;
  for (std::uint64_t w = p.tile; w < job.n; w <<= 1) ++passes;
  if (passes == 0) {
    merge::sort_tiles(job, p.local, p.group, p.local_items);
    return;
  }
  // Temporaries first, so an out-of-memory failure leaves the input untouched.
  rt::BufferPtr tmp_keys = job.temp(job.n * key_size(job.type));
  rt::BufferPtr tmp_values = job.values ? job.temp(job.n * job.value_bytes) : nullptr;
  rt::BufferPtr splits = merge::is_blocked(p.pass)
                             ? job.temp(merge::split_table_bytes(job.n, p.tile, std::uint64_t(p.group) * p.merge_items))
                             : nullptr;
  rt::Buffer* keys[2] = {&job.keys, tmp_keys.get()};
  rt::Buffer* values[2] = {&job.values_or_keys(), tmp_values ? tmp_values.get() : tmp_keys.get()};
  int cur = passes % 2;  // where the tile sort writes; after `passes` swaps the data is back in 0
  merge::sort_tiles_into(job, p.local, p.group, p.local_items, *keys[cur], *values[cur]);
  for (std::uint64_t w = p.tile; w < job.n; w <<= 1) {
    merge::merge_pass(job, p.pass, *keys[cur], *values[cur], *keys[1 - cur], *values[1 - cur], w, p.group,
                      p.merge_items, splits.get());
    cur = 1 - cur;
  }
}

std::vector<std::string> merge_plan_steps(const TempQuery& q) {
  const MergePlan p = plan_merge(q);
  int passes = 0;
  for (std::uint64_t w = p.tile; w < q.n; w <<= 1) ++passes;
  const MergeTuning& row = merge_tuning_for(q.device.description());
  std::vector<std::string> steps{std::string("tuning row ") + row.name + " (measured on " + row.measured_on + "): " + row.note,
                                 "tile sort (local variant " + p.local + "): tiles of " + std::to_string(p.tile) +
                                     " keys, " + std::to_string(p.group) + " work-items x " + std::to_string(p.local_items)};
  if (passes)
    steps.push_back(std::to_string(passes) + " merge passes (variant " + p.pass + "): " + std::to_string(p.group) +
                    " work-items x " + std::to_string(p.merge_items) + " keys");
  return steps;
}

std::uint64_t merge_temp_bytes(const TempQuery& q) {
  if (q.n <= 1) return 0;
  const MergePlan p = plan_merge(q);
  if (p.tile >= q.n) return 0;  // the tile sort alone, in place
  std::uint64_t bytes = temp_request_bytes(q.n * key_size(q.type)) +
                        (q.value_bytes ? temp_request_bytes(q.n * q.value_bytes) : 0);
  if (merge::is_blocked(p.pass))
    bytes += temp_request_bytes(merge::split_table_bytes(q.n, p.tile, std::uint64_t(p.group) * p.merge_items));
  return bytes;
}

}  // namespace gpusort::algo
