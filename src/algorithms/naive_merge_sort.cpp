// Naive merge ("naive-merge", Locicero's first merge): tiles of 2 * work-group-size keys sorted by
// odd-even transposition in local memory (odd_even.cl, offset 0), then one launch per level in which
// work-item t merges runs 2t and 2t+1 sequentially (naive_merge.cl). The last level is one work-item
// merging all n keys: slow by design, the baseline the other merges are measured against.
#include <utility>

#include "algorithms/drivers.hpp"

namespace gpusort::algo {

// Work-items per group when SortOptions::work_group_size is 0 for the naive merge's passes: a width every
// GPU runs well (not tuned per device; checked_group_size fits it to the device).
constexpr std::uint32_t kNaiveMergeGroup = 256;

void naive_merge_sort(SortJob& job) {
  if (job.n <= 1) return;
  const std::uint32_t group = checked_group_size(job.device, job.options.work_group_size, kNaiveMergeGroup);
  auto tile_defines = job.key_defines(group);
  rt::Program& tiles = job.program("odd_even.cl", tile_defines);
  const std::uint64_t tile = 2ull * group;
  rt::Buffer& values = job.values_or_keys();
  // Temporaries before the first launch: a failure leaves the keys unchanged.
  const std::size_t key_bytes = job.n * key_size(job.type), value_bytes = job.n * job.value_bytes;
  rt::BufferPtr tmp_keys, tmp_values;
  if (tile < job.n) {
    tmp_keys = job.temp(key_bytes);
    tmp_values = job.values ? job.temp(value_bytes) : tmp_keys;
  }
  job.device.launch(tiles.kernel("odd_even_window"), {ceil_div(job.n, tile), group},
                    {job.keys, values, job.n, std::uint64_t(0), job.flip_arg()});
  if (tile >= job.n) return;

  rt::Program& program = job.program("naive_merge.cl", job.key_defines());
  rt::Kernel& merge = program.kernel("naive_merge_level");
  rt::Buffer *src_k = &job.keys, *src_v = &values, *dst_k = tmp_keys.get(), *dst_v = tmp_values.get();
  const std::uint32_t merge_group = default_group_size(job.device, 64);
  for (std::uint64_t width = tile; width < job.n; width *= 2) {
    const std::uint64_t mergers = ceil_div(job.n, 2 * width);
    job.device.launch(merge, {ceil_div(mergers, merge_group), merge_group},
                      {*src_k, *src_v, *dst_k, *dst_v, job.n, width, job.flip_arg()});
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
  }
  if (src_k != &job.keys) {
    job.device.copy(*src_k, 0, job.keys, 0, key_bytes);
    if (job.values) job.device.copy(*src_v, 0, *job.values, 0, value_bytes);
  }
}


std::uint64_t naive_merge_temp_bytes(const TempQuery& q) {
  if (q.n <= 1) return 0;
  const std::uint32_t group = checked_group_size(q.device, q.options.work_group_size, kNaiveMergeGroup);
  if (2ull * group >= q.n) return 0;
  return temp_request_bytes(q.n * key_size(q.type)) + (q.value_bytes ? temp_request_bytes(q.n * q.value_bytes) : 0);
}

}  // namespace gpusort::algo
