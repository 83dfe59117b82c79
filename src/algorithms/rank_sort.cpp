// Parallel selection / counting sort ("rank"): one launch of rank_scatter (kernels/rank_sort.cl)
// writes every key straight to its final position in a temporary, which is copied back.
// O(n^2) comparisons, so the registry caps n (see docs/algorithms/rank.md).
//   local_variant "stable":   ties broken by index (default when SortOptions::stable);
//   local_variant "unstable": ties claim their slots through atomics (default otherwise).
//   items_per_thread:         keys each work-item ranks per pass over the array (default 4).
#include "algorithms/drivers.hpp"

namespace gpusort::algo {

// Work-items per group when SortOptions::work_group_size is 0 for the rank sort's counting: a width every
// GPU runs well (not tuned per device; checked_group_size fits it to the device).
constexpr std::uint32_t kRankGroup = 256;

void rank_check_variants(const SortOptions& options) {
  const std::string& variant = options.local_variant;
  if (!variant.empty() && variant != "stable" && variant != "unstable")
    throw Error(errc::invalid_argument, "SortOptions::local_variant '" + variant +
                                            "' is not a variant of algorithm 'rank' (valid: stable, unstable)");
  if (variant == "unstable" && options.stable)
    throw Error(errc::invalid_argument, "SortOptions::local_variant 'unstable' of algorithm 'rank' cannot sort stably; "
                                        "drop SortOptions::stable or the variant");
}

void rank_sort(SortJob& job) {
  rank_check_variants(job.options);
  const std::string& variant = job.options.local_variant;
  if (job.n <= 1) return;
  const bool stable = job.options.stable || variant == "stable";
  const std::uint32_t group = checked_group_size(job.device, job.options.work_group_size, kRankGroup);
  // 1..16 (the registry's range for SortOptions::items_per_thread, checked by the entry points)
  const std::size_t items = job.options.items_per_thread ? job.options.items_per_thread : 4;
  auto defines = job.key_defines(group);
  defines.push_back("RANK_ITEMS=" + std::to_string(items));
  rt::Program& program = job.program("rank_sort.cl", defines);

  const std::size_t key_bytes = job.n * key_size(job.type);
  rt::BufferPtr out_keys = job.temp(key_bytes);
  rt::BufferPtr out_values = job.values ? job.temp(job.n * job.value_bytes) : out_keys;
  rt::BufferPtr claims = stable ? out_keys : job.temp(job.n * sizeof(std::uint32_t));
  if (!stable) job.device.fill_bytes(*claims, 0, 0, job.n * sizeof(std::uint32_t));
  job.device.launch(program.kernel("rank_scatter"), {ceil_div(job.n, std::uint64_t(group) * items), group},
                    {job.keys, job.values_or_keys(), out_keys, out_values, claims, job.n,
                     std::uint32_t(stable ? 1 : 0), job.flip_arg()});
  job.device.copy(*out_keys, 0, job.keys, 0, key_bytes);
  if (job.values) job.device.copy(*out_values, 0, *job.values, 0, job.n * job.value_bytes);
}


std::uint64_t rank_temp_bytes(const TempQuery& q) {
  if (q.n <= 1) return 0;
  const bool stable = q.options.stable || q.options.local_variant == "stable";
  return temp_request_bytes(q.n * key_size(q.type)) + (q.value_bytes ? temp_request_bytes(q.n * q.value_bytes) : 0) +
         (stable ? 0 : temp_request_bytes(q.n * sizeof(std::uint32_t)));
}

}  // namespace gpusort::algo
