// merge: a local tile sort, then global merge passes until one run (docs/algorithms/merge.md).
// Ping-pong: the tile sort runs in place when the number of passes is even and writes to the
// temporary pair when it is odd, so the last pass always lands in job.keys / job.values.
#include "algorithms/merge_sort.hpp"

#include <algorithm>

#include "algorithms/drivers.hpp"
#include "runtime/kernel_sources.hpp"

namespace gpusort::algo {
namespace merge {
namespace {

struct VariantFile {
  const char* name;
  const char* file;
  std::uint32_t default_items;
};

// Local variants: keys per work-item chosen so the O(TILE^2) sorts keep small tiles.
constexpr VariantFile kLocal[] = {
    {"merge", "merge_local_merge.cl", 4},   {"bitonic", "merge_local_bitonic.cl", 4},
    {"rank", "merge_local_rank.cl", 2},     {"odd-even", "merge_local_odd_even.cl", 2},
    {"bubble", "merge_local_bubble.cl", 8},
};
// Merge variants: items = outputs per work-item (path) or cache keys per work-item (cached, hashed).
constexpr VariantFile kMerge[] = {
    {"path", "merge_global_path.cl", 8},     {"rank", "merge_global_rank.cl", 1},
    {"half", "merge_global_half.cl", 1},     {"cached", "merge_global_cached.cl", 4},
    {"hashed", "merge_global_hashed.cl", 4},
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

void check_local_bytes(const rt::Device& device, std::uint64_t bytes, const std::string& what) {
  if (bytes > local_budget(device))
    throw Error(errc::invalid_argument, "merge: " + what + " needs " + std::to_string(bytes) +
                                            " bytes of local memory, more than the device's " +
                                            std::to_string(local_budget(device)) +
                                            "; use a smaller SortOptions::work_group_size or "
                                            "SortOptions::items_per_thread");
}

// The kernel file, with the job's run-time order when it has one (runtime/kernel_sources.hpp).
std::string program_file(const SortJob& job, const char* file) {
  if (job.options.comparator.empty()) return file;
  // Registered once per order, not per pass: registering builds and hashes the whole text.
  thread_local std::string last_body, last_name;
  thread_local bool last_descending = false;
  if (last_name.empty() || last_body != job.options.comparator || last_descending != job.descending()) {
    last_name = rt::register_user_order(job.options.comparator, job.descending());
    last_body = job.options.comparator, last_descending = job.descending();
  }
  return std::string(file) + "#" + last_name;
}

std::vector<std::string> with(std::vector<std::string> defines, std::initializer_list<std::string> more) {
  defines.insert(defines.end(), more);
  return defines;
}

}  // namespace

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
std::uint32_t default_local_items(const std::string& v) { return lookup(kLocal, v, kLocalField).default_items; }
std::uint32_t default_merge_items(const std::string& v) { return lookup(kMerge, v, kMergeField).default_items; }

void sort_tiles(SortJob& job, const std::string& local_variant, std::uint32_t group_size, std::uint32_t items) {
  sort_tiles_into(job, local_variant, group_size, items, job.keys, job.values_or_keys());
}

void sort_tiles_into(SortJob& job, const std::string& local_variant, std::uint32_t group_size, std::uint32_t items,
                     rt::Buffer& dst_keys, rt::Buffer& dst_values) {
  const VariantFile& v = lookup(kLocal, local_variant, kLocalField);
  check_items(items);
  const std::uint64_t tile = std::uint64_t(group_size) * items;
  check_local_bytes(job.device, tile * (key_size(job.type) + 4), "a tile of " + std::to_string(tile) + " keys");
  if (job.n == 0) return;
  rt::Program& program = job.device.program(
      program_file(job, v.file), with(job.key_defines(group_size), {"ITEMS=" + std::to_string(items)}));
  job.device.launch(program.kernel("merge_local_sort"), {ceil_div(job.n, tile), group_size},
                    {job.keys, job.values_or_keys(), dst_keys, dst_values, job.n, job.flip_arg()});
}

namespace {
// Validates a merge variant's items and local memory before anything runs.
void check_merge_resources(const SortJob& job, const std::string& name, std::uint32_t group_size,
                           std::uint32_t items) {
  if (name == "path" || name == "cached" || name == "hashed") check_items(items);
  const std::uint64_t slots = std::uint64_t(group_size) * items;
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
                std::uint32_t items) {
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
  if (name == "path") {
    defines.push_back("ITEMS=" + std::to_string(items));
    groups = ceil_div(n, 2 * width) * ceil_div(2 * width, std::uint64_t(group_size) * items);
  } else if (name == "cached" || name == "hashed") {
    defines.push_back("CACHE=" + std::to_string(std::uint64_t(group_size) * items));
  } else if (name == "half") {
    groups = ceil_div(ceil_div(n, 2 * width) * width, group_size);
  }
  rt::Program& program = job.device.program(program_file(job, v.file), defines);
  job.device.launch(program.kernel("merge_pass"), {groups, group_size},
                    {src_keys, src_values, dst_keys, dst_values, n, width, job.flip_arg()});
}

}  // namespace merge

void merge_check_variants(const SortOptions& options) {
  merge::checked_local_variant(options.local_variant);
  merge::checked_merge_variant(options.merge_variant);
}

void merge_sort(SortJob& job) {
  if (job.n <= 1) return;
  const std::string local = merge::checked_local_variant(job.options.local_variant);
  const std::string pass = merge::checked_merge_variant(job.options.merge_variant);
  const std::uint32_t group = checked_group_size(job.device, job.options.work_group_size, 256);
  const std::size_t requested = job.options.items_per_thread;
  merge::check_items(requested ? requested : 1);
  const std::uint32_t local_items = requested ? std::uint32_t(requested) : merge::default_local_items(local);
  const std::uint32_t merge_items = requested ? std::uint32_t(requested) : merge::default_merge_items(pass);
  const std::uint64_t tile = std::uint64_t(group) * local_items;

  merge::check_items(local_items);
  merge::check_local_bytes(job.device, tile * (key_size(job.type) + 4), "a tile of " + std::to_string(tile) + " keys");
  merge::check_merge_resources(job, pass, group, merge_items);

  int passes = 0;
  for (std::uint64_t w = tile; w < job.n; w <<= 1) ++passes;
  if (passes == 0) {
    merge::sort_tiles(job, local, group, local_items);
    return;
  }
  // Temporaries first, so an out-of-memory failure leaves the input untouched.
  rt::BufferPtr tmp_keys = job.temp(job.n * key_size(job.type));
  rt::BufferPtr tmp_values = job.values ? job.temp(job.n * job.value_bytes) : nullptr;
  rt::Buffer* keys[2] = {&job.keys, tmp_keys.get()};
  rt::Buffer* values[2] = {&job.values_or_keys(), tmp_values ? tmp_values.get() : tmp_keys.get()};
  int cur = passes % 2;  // where the tile sort writes; after `passes` swaps the data is back in 0
  merge::sort_tiles_into(job, local, group, local_items, *keys[cur], *values[cur]);
  for (std::uint64_t w = tile; w < job.n; w <<= 1) {
    merge::merge_pass(job, pass, *keys[cur], *values[cur], *keys[1 - cur], *values[1 - cur], w, group, merge_items);
    cur = 1 - cur;
  }
}


std::uint64_t merge_temp_bytes(const TempQuery& q) {
  if (q.n <= 1) return 0;
  const std::uint32_t group = checked_group_size(q.device, q.options.work_group_size, 256);
  const std::size_t requested = q.options.items_per_thread;
  const std::uint32_t local_items =
      requested ? std::uint32_t(requested) : merge::default_local_items(merge::checked_local_variant(q.options.local_variant));
  if (std::uint64_t(group) * local_items >= q.n) return 0;  // the tile sort alone, in place
  return temp_request_bytes(q.n * key_size(q.type)) + (q.value_bytes ? temp_request_bytes(q.n * q.value_bytes) : 0);
}

}  // namespace gpusort::algo
