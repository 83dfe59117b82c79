#pragma once
// The tile bin of segmented sorts: uniform rows short enough that several whole rows fit one
// work-group's local memory are sorted there, one launch, every key and value read once and written
// once (kernels/segmented_tiles.cl). Portable: OpenCL (PoCL included) and CUDA through NVRTC.
// Rows longer than segmented_tiles_capacity, and segments given by offsets, are other bins' work.
// Internal: not part of the public API.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/segmented/segmented_job.hpp"
#include "gpusort/device.hpp"
#include "gpusort/key_type.hpp"

namespace gpusort::algo {

// Tuning as data: one row per class of devices (device_class, gpusort/device.hpp), the first match
// winning, a generic row last.
struct SegmentedTilesTuning {
  const char* name;          // the row's name, as `gpusort plan` prints it
  const char* device_class;  // the classes it serves: a device_class() or a prefix of one ending at a ':'; "" any
  const char* measured_on;   // the device class its values were measured on ("" none yet)
  const char* note;          // what the row is, in one line
  std::uint32_t group;       // work-items per group (a power of two, at least 16)
  std::uint64_t max_tile;    // keys per work-group at most (<= 65536: u16 tile positions), local memory permitting
  // Few rows: they are spread so that at least compute units x this many groups run, fewer rows each.
  std::uint32_t groups_per_compute_unit;
};
std::span<const SegmentedTilesTuning> segmented_tiles_tuning_rows();
const SegmentedTilesTuning& segmented_tiles_tuning_for(const DeviceDescription& desc);

// The longest row the bin takes on this device (0: none): the largest tile whose local memory fits,
// capped by the tuning row. positions: an argsort (the value_bytes are the indices', 4 or 8, made by
// the kernel, not loaded), which leaves more room for keys.
std::uint64_t segmented_tiles_capacity(const rt::Device& device, key_type type, std::size_t value_bytes,
                                       bool positions = false);

// One launch of segmented_tiles_rows for rows x row_length keys.
struct SegmentedTilesShape {
  const SegmentedTilesTuning* tuning = nullptr;
  std::uint32_t group = 0;
  std::uint64_t rows_per_group = 0;  // 0: the rows do not fit (longer than the capacity)
  std::uint64_t groups = 0;
  std::uint64_t slots = 0;        // elements per local array (the kernel's SG_PAD spare slots included)
  std::uint64_t local_bytes = 0;  // dynamic local memory per group
  std::uint32_t key_passes = 0, row_passes = 0;  // 4-bit digit passes over the keys, over the row index
};
SegmentedTilesShape segmented_tiles_shape(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                          bool positions, std::uint64_t rows, std::uint64_t row_length);
// Dynamic local memory of a tile of `tile` keys (kernels/segmented_tiles.cl's layout).
std::uint64_t segmented_tiles_local_bytes(std::uint64_t tile, std::size_t key_bytes, std::size_t value_bytes,
                                          bool positions, std::uint32_t group);

// Sorts every row of job (uniform rows of at most segmented_tiles_capacity keys; Error(invalid_argument)
// otherwise, Error(unsupported) for offsets or a run-time comparator). Reads job.sort.keys_in /
// values_in where set (never writing them), writes job.sort.keys / values; makes an argsort's
// positions itself (clears values_are_positions). Stable in every order; no temporaries, no read-back.
void segmented_tiles_sort(SegmentedJob& job);

// What segmented_tiles_sort runs for this shape, one line each (gpusort plan): the tuning row, then
// the kernel with its work-group size, rows per group, local bytes and passes.
std::vector<std::string> segmented_tiles_plan_steps(const DeviceDescription& desc, key_type type,
                                                    std::size_t value_bytes, bool positions, std::uint64_t rows,
                                                    std::uint64_t row_length);

}  // namespace gpusort::algo
