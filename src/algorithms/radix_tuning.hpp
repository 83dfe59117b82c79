#pragma once
// Radix sort tuning as data: one row of measured choices per class of devices (device_class,
// gpusort/device.hpp), the first row whose class matches wins, and the last rows are generic ones
// for devices nobody measured. radix_policy.cpp's chooser reads nothing else that was measured.
// The measurements behind the values: docs/algorithms/radix.md and lab/notes/radix-policy-history.md.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "gpusort/device.hpp"

namespace gpusort::algo {

// Onesweep keys per thread: the first row that matches key bytes, value bytes, n (and, where set,
// packed pairs) wins.
struct OnesweepItemsRow {
  std::size_t key_min, key_max, value_min, value_max;
  std::uint64_t n_from, n_below;
  bool packed_only;
  std::uint32_t items;
};

// Packed pairs (4-byte keys with 4-byte values staged apart) from this n on.
struct PackedFromRow {
  bool float_keys;
  std::uint64_t n_from;
};

// The largest n (log2) the bitonic network takes by default, by key width and values (0: never).
struct BitonicCapRow {
  std::size_t key_bytes_max;
  bool values;
  std::uint32_t max_log2;
};

// Integer keys of these widths with values of these widths take the segments from n_from (while a
// segment shape holds them), with these tiles' passes (SegmentPolicy::rank_first, min_blocks).
struct SegmentsFromRow {
  std::size_t key_bytes, value_bytes;
  std::uint64_t n_from;
  bool rank_first;
  std::uint32_t min_blocks;
  bool interleaved;  // where the onesweep passes pack the pairs (SegmentPolicy::interleaved)
};

struct RadixTuning {
  const char* name;          // the row's name, as `gpusort plan` prints it
  const char* device_class;  // the classes it serves: a device_class() or a prefix of one ending at a ':'; "" any
  const char* measured_on;   // the device class its values were measured on
  const char* note;          // what the row is, in one line

  // ---- the onesweep passes (CUDA and NVIDIA's OpenCL) ----
  std::span<const OnesweepItemsRow> onesweep_items;
  // small n: items shrink (steps of 4, down to 4) until a pass has this many tiles of keys / of pairs
  std::uint64_t min_tiles_keys, min_tiles_pairs;
  std::span<const PackedFromRow> packed_from;  // empty: pairs never packed (cp.async: sm_80 and later)
  std::uint32_t snapshot_keys8;                // 8-byte keys alone: look-back snapshot of W (0: off; cp.async)
  // 8-byte keys with 8-byte values staged beside their keys in [from, below) (2 blocks per SM)
  std::uint64_t wide_pairs_beside_from, wide_pairs_beside_below;
  std::uint64_t uniform_count_wide_pairs_from;  // 8+8-byte pairs staged after their keys: RADIX_UNIFORM_COUNT
  std::uint64_t recompute_keys4_from;           // 4-byte integer keys alone: the scatter recomputes digits
  // 4-byte keys alone in [from, below): 16 histogram counter copies instead of 32
  std::uint64_t hist_copies16_keys4_from, hist_copies16_keys4_below;
  std::uint64_t no_skip_max_n;       // up to here no histogram read-back: every pass runs
  std::uint32_t match_immediate;     // CUDA: the warp match's bit tests against immediates
  // NVIDIA's OpenCL: pairs whose values do not fit beside the keys, staged after them at this shape
  std::uint32_t opencl_unsplit_items, opencl_unsplit_min_blocks;

  // ---- one-block sorts and segments (CUDA) ----
  std::span<const BitonicCapRow> bitonic_caps;
  std::uint64_t single_tile_max_keys4;  // 4-byte keys alone take the onesweep passes above this n
  std::span<const SegmentsFromRow> segments_from;  // empty: the segments only through the override

  // ---- the portable paths (every other device) ----
  std::uint32_t portable_group, portable_items;  // PortablePolicy's shape
  std::uint32_t portable_groups_per_compute_unit;
  bool portable_group_digit_scan;   // RADIX_GROUP_DIGIT_SCAN
  bool portable_onesweep;           // n < 2^30: radix_onesweep_portable.cl rather than count + scan + scatter
  std::uint32_t lookback_window_keys;  // portable onesweep, keys alone: words per look-back step (pairs: 1)
  std::uint32_t single_group_size;     // radix_single_group.cl's work-items
  std::uint64_t single_group_max_n;
};

// Every row, the first match winning (radix_tuning.cpp).
std::span<const RadixTuning> radix_tuning_rows();
// The row for a device: the first whose class matches device_class(desc).
const RadixTuning& radix_tuning_for(const DeviceDescription& desc);
// Whether a row's class pattern serves a device class.
bool tuning_class_matches(const char* pattern, const std::string& device_class);
// The first of a table's rows (each with a device_class pattern) that serves desc's class; the last
// row, which serves every class, where none does. Every tuning table is looked up through this.
template <class Row>
const Row& tuning_row_for(std::span<const Row> rows, const DeviceDescription& desc) {
  const std::string cls = device_class(desc);
  for (const Row& row : rows)
    if (tuning_class_matches(row.device_class, cls)) return row;
  return rows.back();
}

}  // namespace gpusort::algo
