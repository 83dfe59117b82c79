#pragma once
// Which bin sorts a segmented request (gpusort/segmented.hpp), decided from the request alone (its
// shape, key type, options; never the offsets' contents, which only tiles_or_portable reads back,
// and binned bins on the device, when they run): tuning as data, one row per class of devices
// (device_class, gpusort/device.hpp), the first match winning, a generic row last, as radix_policy
// and merge_tuning keep theirs. Internal.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "gpusort/device.hpp"
#include "gpusort/plan.hpp"

namespace gpusort::algo {

// The bins (src/algorithms/segmented/segmented_sort.hpp runs the one chosen).
enum class SegmentedBin {
  portable,  // every backend and shape: one 1-D sort of (key, position), then a stable sort by segment
  per_row,   // uniform rows (or one segment): a 1-D sort of each row's range, one after the other
  tiles,     // short rows, several per work-group, in local memory (segmented_tiles.hpp)
  onesweep,  // long uniform rows on CUDA, a onesweep pass per row (segmented_onesweep.hpp)
  // offsets: the longest segment measured on the device and read back (one word), then tiles if
  // every segment fits the tile bin's window, else portable (segmented_sort.cpp)
  tiles_or_portable,
  // offsets: segments binned on the device, the short ones by tiles, the long ones by a fixed grid
  // of work-groups; nothing read back (segmented_binned.hpp)
  binned,
};
// "portable", "per-row", "tiles", "onesweep", "tiles-or-portable", "binned"
const char* to_string(SegmentedBin bin);

struct SegmentedTuning {
  const char* name;          // the row's name
  const char* device_class;  // the classes it serves: a device_class() or a prefix of one ending at a ':'; "" any
  const char* measured_on;   // the device class(es) its values were measured on ("" none)
  const char* note;          // what the row is, in one line
  // tiles: uniform rows of up to this many elements (0: the bin is not chosen)
  std::uint64_t tiles_max_length;
  // onesweep (CUDA): uniform rows of at least this many elements (0: the bin is not chosen)
  std::uint64_t onesweep_min_length;
  // per_row: at most per_row_max_rows uniform rows of at least per_row_min_length elements each
  // (0: not chosen but for one segment), whose ranges start where a sub-buffer may (4096 bytes)
  std::uint64_t per_row_min_length;
  std::uint64_t per_row_max_rows;
  // onesweep: an argsort with 8-byte indices carries 4-byte positions through the passes and widens
  // them after (SegmentedChoice::narrow_positions)
  bool onesweep_narrow_positions;
  // binned (offsets): work-groups per compute unit of the long-segment kernel's fixed grid (0: the
  // bin cannot run), and its tile of keys per pass step at most (halved until local memory holds it)
  std::uint32_t binned_groups_per_compute_unit;
  std::uint32_t binned_long_tile;
  // binned, CUDA: segments of more keys than this are sorted by several blocks each, the segmented
  // onesweep's passes over the listed segments (segmented_listed.hpp); 0: every long segment by one
  // work-group
  std::uint64_t binned_onesweep_min_length;
  // binned, CUDA: segments of 1 to this many keys (at most 128) are sorted in warps
  // (segmented_warp_segments.hpp), and the tiles leave them alone; 0: the tiles sort them
  std::uint32_t binned_warp_max_length;
  // ... and each warp takes this many consecutive segments (1 to 32: fewer, more warps in flight)
  std::uint32_t binned_warp_segments_per_warp;
  // binned, CUDA, with the warps: the segments longer than theirs, up to this many keys, are listed
  // by size class on the device (2^(k-1) + 1 to 2^k keys) and each sorted by one block, the 1-D
  // one-block sort for 2^k keys (segmented_rows_block.cl's listed kernels), as far as that sort
  // takes 2^k keys; 0: the tiles and the long-segment kernels sort them
  std::uint64_t binned_block_max_length;
  // offsets of automatic requests: the binned bin (nothing read back), else tiles-or-portable (one
  // word read back)
  bool offsets_binned;
};

// Every row, the first match winning.
std::span<const SegmentedTuning> segmented_tuning_rows();
// The row for a device: the first whose class matches device_class(desc).
const SegmentedTuning& segmented_tuning_for(const DeviceDescription& desc);

// What the planner decided for a segmented request (algo::Plan::segments).
struct SegmentedChoice {
  SegmentedBin bin = SegmentedBin::portable;
  const SegmentedTuning* row = nullptr;
  // portable: the width of the positions 0..n-1 (8 from 2^32 elements) and of a segment number
  // (8 from 2^32 segments)
  std::size_t position_bytes = 4;
  std::size_t segment_bytes = 4;
  // an argsort with 8-byte indices: the bin sorts 4-byte positions, widened to 8 bytes after it
  // (kernels/positions.cl widen_positions); segments shorter than 2^32, so they fit
  bool narrow_positions = false;
  // the number of elements each 1-D sort of the bin sorts (portable: n; per_row: a row's length;
  // tiles, onesweep: 0, they run no 1-D sort): the request's algorithm is chosen for it
  std::uint64_t sort_n = 0;
};

// Whether a uniform request's rows start where sub-buffers may (each row's keys, values and
// indices a multiple of 4096 bytes), or it is one segment: what per_row needs.
bool rows_cut_into_views(const SortRequest& request);

// The choice for a validated segmented request (SortRequest::segmented()) on `device`. Offsets
// go to binned where the row chooses it, the bin fits the device and there are fewer than 2^32
// keys, else to tiles_or_portable where the tile bin has a window on the device, else portable. The
// specialised bins (tiles, onesweep, tiles_or_portable, binned) run only with SortOptions::algorithm "auto" and no comparator;
// a named algorithm or a run-time order sorts through portable or per_row.
SegmentedChoice choose_segmented(const DeviceDescription& device, const SortRequest& request);

// Tests and gpusort-bench only: a set field replaces the choice. A bin the request cannot take
// (per_row for offsets of several segments or rows that do not cut into views) is
// Error(invalid_argument) when the request is planned.
struct SegmentedPolicyOverride {
  std::optional<SegmentedBin> bin;
  std::optional<std::size_t> position_bytes;  // 4 or 8 (8 exercises the wide path on small data)
  std::optional<std::size_t> segment_bytes;   // 4 or 8
  // CUDA tile bin: rows of at least this many keys take a block each (0: never; the tuning row's
  // SegmentedTilesTuning::block_min_row otherwise)
  std::optional<std::uint64_t> block_min_row;
  std::optional<bool> narrow_positions;
  std::optional<std::uint32_t> warp_items;  // CUDA tile bin's warp rows: rows per lane (1 to 8)
  // binned on CUDA: segments of more keys go to the listed onesweep (0: none do)
  std::optional<std::uint64_t> binned_onesweep_min;
  // tile bin by offsets: tiles of segments of at most this many keys are ranked (0: never;
  // SegmentedTilesTuning::rank_max_segment otherwise)
  std::optional<std::uint32_t> tile_rank_max;
  // binned on CUDA: segments of at most this many keys are sorted in warps (0: none; at most 128)
  std::optional<std::uint32_t> warp_segments_max;
  std::optional<std::uint32_t> segments_per_warp;  // binned on CUDA: the warps' segments each (1 to 32)
  std::optional<std::uint64_t> block_max;  // binned on CUDA: the block classes' longest segments (0: none)
};
// The process-wide override (none by default). Not synchronised: set it before sorting.
void set_segmented_policy_override(const SegmentedPolicyOverride& o);
const SegmentedPolicyOverride& segmented_policy_override();
// "bin=per-row,position_bytes=8,block_min_row=0,narrow_positions=0,warp_items=1,onesweep_min=16384,
// tile_rank_max=64,warp_segments_max=64,block_max=2048" (bin:
// portable, per-row, tiles, onesweep, tiles-or-portable or binned): for gpusort-bench.
// Throws Error(invalid_argument) on an unknown name or a bad value.
SegmentedPolicyOverride parse_segmented_policy_override(std::string_view spec);

}  // namespace gpusort::algo
