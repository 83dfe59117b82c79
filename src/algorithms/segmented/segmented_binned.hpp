#pragma once
// The binned bin of segmented sorts, for segments given by offsets, on every backend: segment
// lengths are binned on the device, with nothing read back and every launch's size fixed by the
// request and the device (so the sort can be captured in a CUDA graph):
//   1. segmented_long.cl segmented_bin_long lists the segments longer than the tile bin's window
//      (an atomic counter, zeroed by a fill first);
//   2. on CUDA, segments of up to the tuning row's binned_warp_max_length keys are sorted in warps
//      (segmented_warp_segments.hpp), and longer ones up to binned_block_max_length (as far as the
//      1-D one-block sort takes them) one block each, listed by size class in step 1
//      (segmented_rows_block.cl's listed kernels); the tile bin sorts what is left of its window
//      (segmented_tiles_offsets, which leaves the others' and the longer segments untouched; on
//      CUDA it does not run where the classes reach past the window);
//   3. segmented_long.cl segmented_long_sort, a fixed grid (compute units x the tuning row's groups
//      per compute unit), sorts the listed segments, one per work-group at a time, by stable 4-bit
//      LSD passes over global memory through temporaries as large as the keys and values.
// Keys alone, pairs, argsort (positions local to the segment, 4 or 8 bytes); both orders; stable.
// Internal: the segmented dispatcher (segmented_sort.hpp) calls it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/segmented/segmented_job.hpp"
#include "gpusort/device.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"

namespace gpusort::algo {

// The long-segment launch on a device.
struct SegmentedLongShape {
  std::uint32_t group = 0;       // work-items per group (the tile bin's)
  std::uint64_t groups = 0;      // the fixed grid: compute units x groups per compute unit
  std::uint32_t tile = 0;        // keys per tile of a pass (0: no room in local memory)
  std::uint64_t slots = 0;       // elements per local array
  std::uint64_t local_bytes = 0;  // dynamic local memory per group
  std::uint32_t passes = 0;      // 4-bit digit passes at most per segment
};
// The grid and the largest tile from the device's segmented tuning row (segmented_policy.hpp:
// binned_groups_per_compute_unit, binned_long_tile), the tile halved until local memory holds it.
SegmentedLongShape segmented_long_shape(const DeviceDescription& desc, key_type type, std::size_t value_bytes);

// Whether the bin can run on the device for this key type and value width (a tile window and a
// long-segment tile both fit local memory).
bool segmented_binned_fits(const DeviceDescription& desc, key_type type, std::size_t value_bytes, bool positions);

// The temporaries segmented_binned_sort asks for, as temp_request_bytes sums them.
std::uint64_t segmented_binned_temp_bytes(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                          bool positions, std::uint64_t n, std::uint64_t count,
                                          const SortOptions& options);

// Sorts job's segments (by offsets, u32 or u64; fewer than 2^32 keys in all), as described above.
// Error(unsupported) for a run-time comparator or a device without room for the bin.
void segmented_binned_sort(SegmentedJob& job);

// One line per step (gpusort plan).
std::vector<std::string> segmented_binned_plan_steps(const DeviceDescription& desc, key_type type,
                                                     std::size_t value_bytes, bool positions, std::uint64_t n,
                                                     std::uint64_t count, const SortOptions& options);

}  // namespace gpusort::algo
