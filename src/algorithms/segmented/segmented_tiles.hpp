#pragma once
// The tile bin of segmented sorts: uniform rows short enough that several whole rows fit one
// work-group's local memory are sorted there, one launch, every key and value read once and written
// once (kernels/segmented_tiles.cl). Portable: OpenCL (PoCL included) and CUDA through NVRTC.
// Segments given by offsets take the same kernel by windows (segmented_tiles_window). Longer rows and
// segments are other bins' work.
// Internal: not part of the public API.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "algorithms/radix_policy.hpp"
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
  // CUDA: rows of at most this many keys (<= 32) take segmented_tiles_warp, a bitonic network across
  // the lanes of a warp per row, instead of the tile (0: never)
  std::uint32_t warp_max_row;
  // ... and each lane holds an element of this many rows (kernels/segmented_warp_rows.h,
  // WARP_ROW_ITEMS; SegmentedPolicyOverride::warp_items replaces it)
  std::uint32_t warp_items;
  // CUDA: rows of at least this many keys take a block each (kernels/segmented_rows_block.cl: the 1-D
  // radix sort's one-block sort of the row, where it takes n = the row's length) instead of the tile
  // (0: never; SegmentedPolicyOverride::block_min_row replaces it)
  std::uint64_t block_min_row;
  // Offsets: a tile whose segments all hold at most this many keys is sorted by counting each key's
  // place in its segment instead of by digit passes (kernels/segmented_tiles.cl, tile_sort's
  // by_rank; 0: never; SegmentedPolicyOverride::tile_rank_max replaces it)
  std::uint32_t rank_max_segment;
};
std::span<const SegmentedTilesTuning> segmented_tiles_tuning_rows();
const SegmentedTilesTuning& segmented_tiles_tuning_for(const DeviceDescription& desc);

// The longest row the bin takes on this device (0: none): the largest tile whose local memory fits,
// capped by the tuning row. positions: an argsort (the value_bytes are the indices', 4 or 8, made by
// the kernel, not loaded), which leaves more room for keys.
std::uint64_t segmented_tiles_capacity(const rt::Device& device, key_type type, std::size_t value_bytes,
                                       bool positions = false);
// Segments given by offsets: the window W. Work-group g takes the segments that start in
// [g * W, (g + 1) * W) and are at most W keys long (a tile of at most 2W keys); longer segments are
// left untouched, neither read nor written (out of place too), for another bin.
std::uint64_t segmented_tiles_window(const rt::Device& device, key_type type, std::size_t value_bytes,
                                     bool positions = false);

// One launch of segmented_tiles_rows, segmented_tiles_warp or segmented_rows_block.cl's kernel of
// the shape (rows x row_length keys), or of segmented_tiles_offsets (n keys).
struct SegmentedTilesShape {
  const SegmentedTilesTuning* tuning = nullptr;
  std::uint32_t group = 0;
  std::uint64_t rows_per_group = 0;  // rows: 0 when they do not fit (longer than the capacity)
  std::uint32_t warp_width_log2 = 0;  // warp: lanes per row (log2)
  std::uint32_t warp_items = 1;       // warp: rows per lane (rows_per_group counts one item's)
  bool warp = false;                  // rows: segmented_tiles_warp (CUDA) rather than the tile
  // rows: one block per row (CUDA, segmented_rows_block.cl) with the 1-D one-block sort of this shape
  // (threads x items, or the bitonic network of 2^bitonic_log2 elements) rather than the tile
  bool block = false;
  SingleTilePolicy block_sort;
  std::uint64_t window = 0;          // offsets: 0 when the device has no room for the bin
  std::uint64_t groups = 0;
  std::uint64_t slots = 0;        // elements per local array (the kernel's SG_PAD spare slots included)
  std::uint64_t local_bytes = 0;  // dynamic local memory per group
  // 4-bit digit passes over the keys, and at most over the row key (rows: the row's index in the
  // tile; offsets: its start in the tile, up to 16 bits; passes whose digit is the same for the tile skip)
  std::uint32_t key_passes = 0, row_passes = 0;
  std::uint32_t rank_max = 0;  // offsets: tiles of segments no longer than this are ranked (0: never)
};
SegmentedTilesShape segmented_tiles_shape(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                          bool positions, std::uint64_t rows, std::uint64_t row_length);
SegmentedTilesShape segmented_tiles_offsets_shape(const DeviceDescription& desc, key_type type,
                                                  std::size_t value_bytes, bool positions, std::uint64_t n);
// Dynamic local memory of a tile of `tile` keys (kernels/segmented_tiles.cl's layout; offsets: the
// row starts too).
std::uint64_t segmented_tiles_local_bytes(std::uint64_t tile, std::size_t key_bytes, std::size_t value_bytes,
                                          bool positions, std::uint32_t group, bool offsets = false);

// CUDA's one-block sorts (kernels/segmented_rows_block.cl: the 1-D radix sort's one-block sort of a
// row, or of each listed segment): the program, and the kernel of a policy in a form ("rows" or
// "listed").
rt::Program& segmented_rows_block_program(SortJob& sort);
std::string segmented_block_kernel(const char* form, const SingleTilePolicy& t);

// Sorts job's segments: uniform rows of at most segmented_tiles_capacity keys (Error(invalid_argument)
// for longer ones), or, by offsets, every segment of at most segmented_tiles_window keys (longer ones
// are left untouched, their keys, values and an argsort's indices all unwritten). Error(unsupported)
// for a run-time comparator. By offsets, segments of 1 to short_max keys are left to another
// kernel too (CUDA's segmented_warp_segments; 0: none): never written; then own_windows holds a u32
// per window (segmented_long.cl's segmented_bin_long sets them), and a window whose word is 0 sorts
// nothing. Reads job.sort.keys_in /
// values_in where set (never writing them), writes job.sort.keys / values; makes an argsort's
// positions itself (clears values_are_positions). Stable in every order; no temporaries, no read-back.
void segmented_tiles_sort(SegmentedJob& job, std::uint32_t short_max = 0, rt::Buffer* own_windows = nullptr);

// What segmented_tiles_sort runs for n keys in count segments, uniform rows of row_length keys (0:
// by offsets), one line each (gpusort plan): the tuning row, then the kernel with its work-group
// size, rows per group (or window), local bytes and passes.
std::vector<std::string> segmented_tiles_plan_steps(const DeviceDescription& desc, key_type type,
                                                    std::size_t value_bytes, bool positions, std::uint64_t n,
                                                    std::uint64_t count, std::uint64_t row_length);

}  // namespace gpusort::algo
