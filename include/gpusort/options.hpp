#pragma once
// What a caller can ask of a sort. Designed for designated initializers:
//   gpusort::sort(ctx, keys, {.order = gpusort::order::descending, .stable = true});
#include <cstddef>
#include <cstdint>
#include <string>

namespace gpusort {

enum class order { ascending, descending };

struct SortOptions {
  gpusort::order order = gpusort::order::ascending;
  // Equal keys keep their input order. An algorithm that cannot be stable rejects this (Error).
  bool stable = false;
  // "auto" lets gpusort choose; otherwise a name from `gpusort algorithms` / gpusort::algorithms().
  std::string algorithm = "auto";
  // Work-group (CUDA: block) size; 0 = the algorithm's default for the device.
  std::size_t work_group_size = 0;
  // Keys each work-item handles in tiled kernels; 0 = default.
  std::size_t items_per_thread = 0;
  // Algorithm-specific variant choices (e.g. merge: local="bitonic", merge="path"); empty = default.
  std::string local_variant;
  std::string merge_variant;
  // hybrid: how many top merge levels the host's threads do (-1 = automatic, see docs/algorithms/hybrid.md).
  int host_merge_levels = -1;
  // Print what was chosen and how long each phase took (to stderr).
  bool verbose = false;
  // Host sorts (sort, sort_pairs, sort_host): how many bytes of device memory the sort may use;
  // 0 = 70% of the device's global memory. When the keys, values and the algorithm's temporaries do
  // not fit, the data is sorted in chunks that do (pipelined: upload, sort, download) and the
  // sorted chunks are merged on the host's threads (docs/DESIGN-NOTES.md, "Out-of-core").
  std::uint64_t device_memory_limit = 0;
};

}  // namespace gpusort
