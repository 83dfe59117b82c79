// Section sort + scatter-address merge ("section-merge", the CUDA merge-sort seed made general):
// one launch sorts sections of S keys, one work-item per section (insertion sort); then
// ceil(log2(n/S)) launches merge runs pairwise, one work-item per key, each writing its key to
// (own offset + binary-search rank in the sibling run) of a second buffer (kernels/section_merge.cl).
#include <utility>

#include "algorithms/drivers.hpp"
#include "algorithms/order_check.hpp"
#include "algorithms/section_merge.hpp"

namespace gpusort::algo {

// Work-items per group when SortOptions::work_group_size is 0 for the section merge's passes: a width every
// GPU runs well (not tuned per device; checked_group_size fits it to the device).
constexpr std::uint32_t kSectionMergeGroup = 256;

std::uint64_t section_length(const SortOptions& options) {
  return options.items_per_thread ? options.items_per_thread : 32;
}
std::uint64_t section_length(const SortJob& job) { return section_length(job.options); }

std::uint64_t section_merge_temp_bytes(const TempQuery& q, int max_levels) {
  if (q.n <= 1 || section_length(q.options) >= q.n || max_levels == 0) return 0;
  return temp_request_bytes(q.n * key_size(q.type)) + (q.value_bytes ? temp_request_bytes(q.n * q.value_bytes) : 0);
}

std::uint64_t section_merge_passes(SortJob& job, std::uint64_t section, int max_levels) {
  if (job.n <= 1) return job.n;
  const std::uint32_t group = checked_group_size(job.device, job.options.work_group_size, kSectionMergeGroup);
  rt::Program& program = job.program("section_merge.cl", job.key_defines());
  rt::Buffer& values = job.values_or_keys();
  // Temporaries before the first launch: a failure leaves the keys unchanged.
  const std::size_t key_bytes = job.n * key_size(job.type), value_bytes = job.n * job.value_bytes;
  rt::BufferPtr tmp_keys, tmp_values;
  if (section < job.n && max_levels != 0) {
    tmp_keys = job.temp(key_bytes);
    tmp_values = job.values ? job.temp(value_bytes) : tmp_keys;
  }
  job.device.launch(program.kernel("section_sort"), {ceil_div(ceil_div(job.n, section), group), group},
                    {job.keys, values, job.n, section, job.flip_arg()});
  std::uint64_t width = section;
  if (width >= job.n || max_levels == 0) return width;
  rt::Buffer *src_k = &job.keys, *src_v = &values, *dst_k = tmp_keys.get(), *dst_v = tmp_values.get();
  rt::Kernel& merge = program.kernel("section_merge_level");
  for (int level = 0; width < job.n && (max_levels < 0 || level < max_levels); ++level, width *= 2) {
    seed_scatter_destination(job, *src_k, *dst_k);
    job.device.launch(merge, {ceil_div(job.n, group), group}, {*src_k, *src_v, *dst_k, *dst_v, job.n, width, job.flip_arg()});
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != &job.keys) {
    job.device.copy(*src_k, 0, job.keys, 0, key_bytes);
    if (job.values) job.device.copy(*src_v, 0, *job.values, 0, value_bytes);
  }
  return width;
}

void section_merge_sort(SortJob& job) { section_merge_passes(job, section_length(job), -1); }


std::uint64_t section_merge_temp_bytes(const TempQuery& q) { return section_merge_temp_bytes(q, -1); }

}  // namespace gpusort::algo
