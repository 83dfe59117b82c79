// The segmented sorts' tuning rows and the choice of a bin (segmented_policy.hpp).
#include "algorithms/segmented/segmented_policy.hpp"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <string>
#include <utility>

#include "algorithms/radix_tuning.hpp"
#include "algorithms/segmented/segmented_binned.hpp"
#include "algorithms/segmented/segmented_onesweep.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint64_t kViewAlign = 4096;  // where a sub-buffer may start (runtime/device.hpp)

constexpr SegmentedTuning kRows[] = {
    // Not measured yet. Issue 52's table (H100, 2026-12-06): a loop of one 1-D radix sort per row
    // beat every segmented CUB sort at 4 x 2^24 (2.42 ms, 42x faster than one block per row); the
    // portable bin sorts all n twice, so rows of 2^20 and more, up to 64 of them, go one by one.
    // An argsort with int64 indices through the onesweep bin, 4-byte positions widened after against
    // 8-byte ones throughout (H100, 2026-12-06): 64 x 128256 0.377 ms against 0.434, 4096 x 32768
    // 6.05 against 7.18 (lab/perf/h100-2026-12-06/segmented-blocks).
    // Offsets (H100, 2026-12-07, dc4e4dd, lab/perf/h100-2026-12-07/): the binned bin, its long
    // segments shared among work-groups by the listed onesweep, sorts the power-law mix (2^16
    // segments, 2^26 f32 keys) in 4.13 ms (4.78 with int32 indices) where tiles-or-portable took
    // 7.06 (7.37), and 2^17 rows of 0-64 keys alike (0.49 / 0.41 ms against 0.48 / 0.40). Before the
    // long segments were shared (2026-12-06) it took 304 ms there.
    // Offsets' shorter segments (H100, 2026-12-07, 14f8460, lab/notes/segmented-short-segments-2026-12-07.md):
    // warps for up to 128 keys, 32 segments to a warp (8 or 16 to a warp: 0.106-0.108 ms on the tiny
    // rows against 0.108, 0.168-0.226 on 2^20 rows of 0-16 keys against 0.148), then block classes up
    // to 4096 keys (up to 2048: power law 2.19 / 3.72 ms with int32 indices; none: 3.80 / 4.98; 4096:
    // 2.18 / 3.53), the listed onesweep above 4096 keys (8a5d8df, before the classes: 2048 4.01 /
    // 5.28, 4096 3.82 / 4.54, 8192 3.83 / 4.55, 16384 4.01 / 4.72).
    {.name = "cuda",
     .device_class = "cuda",
     .measured_on = "cuda:sm_90:H100 (narrow positions, offsets)",
     .note = "rows of up to 4096 keys in tiles, a 1-D sort per row for up to 64 rows of 2^20+ keys, longer "
             "rows by the segmented onesweep; offsets binned on the device: up to 128 keys in warps, up to "
             "4096 a block each by size class, longer ones shared among blocks",
     .tiles_max_length = 4096,
     .onesweep_min_length = 4097,
     .per_row_min_length = std::uint64_t(1) << 20,
     .per_row_max_rows = 64,
     .onesweep_narrow_positions = true,
     // offsets: 4 long-segment blocks per SM (as the tiles' 4), passes in tiles of 2048 keys (not measured)
     .binned_groups_per_compute_unit = 4,
     .binned_long_tile = 2048,
     .binned_onesweep_min_length = 4096,
     .binned_warp_max_length = 128,
     .binned_warp_segments_per_warp = 32,
     .binned_block_max_length = 4096,
     .offsets_binned = true},
    // A CPU (PoCL): as many long segments at once as the device has work-groups in flight, which is
    // its width anyway; offsets binned, nothing read back (not measured against tiles-or-portable).
    {.name = "cpu",
     .device_class = "cpu",
     .measured_on = "",
     .note = "rows of up to 4096 keys in tiles, offsets binned on the device, the portable bin for every other "
             "shape but one segment",
     .tiles_max_length = 4096,
     .onesweep_min_length = 0,
     .per_row_min_length = 0,
     .per_row_max_rows = 0,
     .onesweep_narrow_positions = false,
     .binned_groups_per_compute_unit = 4,
     .binned_long_tile = 2048,
     .binned_onesweep_min_length = 0,
     .binned_warp_max_length = 0,
     .binned_warp_segments_per_warp = 32,
     .binned_block_max_length = 0,
     .offsets_binned = true},
    // Elsewhere the rows would be sub-buffers, on which kernels ran 25-55x slower on NVIDIA's
    // OpenCL (H200, 2026-11-26, docs/DESIGN-NOTES.md): one segment is the 1-D sort itself, every
    // other shape the portable bin.
    {.name = "generic",
     .device_class = "",
     .measured_on = "",
     .note = "rows of up to 4096 keys in tiles, offsets tiles-or-portable (the binned bin's long segments "
             "were slow on a GPU), the portable bin for every other shape but one segment (rows as sub-buffers "
             "are slow on some OpenCL devices)",
     .tiles_max_length = 4096,
     .onesweep_min_length = 0,
     .per_row_min_length = 0,
     .per_row_max_rows = 0,
     .onesweep_narrow_positions = false,
     .binned_groups_per_compute_unit = 4,
     .binned_long_tile = 2048,
     .binned_onesweep_min_length = 0,
     .binned_warp_max_length = 0,
     .binned_warp_segments_per_warp = 32,
     .binned_block_max_length = 0,
     .offsets_binned = false},
};

SegmentedPolicyOverride g_override;

bool automatic(const SortOptions& o) {
  return (o.algorithm.empty() || o.algorithm == "auto") && o.comparator.empty();
}

}  // namespace

const char* to_string(SegmentedBin bin) {
  switch (bin) {
    case SegmentedBin::portable: return "portable";
    case SegmentedBin::per_row: return "per-row";
    case SegmentedBin::tiles: return "tiles";
    case SegmentedBin::onesweep: return "onesweep";
    case SegmentedBin::tiles_or_portable: return "tiles-or-portable";
    case SegmentedBin::binned: return "binned";
  }
  return "?";
}

std::span<const SegmentedTuning> segmented_tuning_rows() { return kRows; }

const SegmentedTuning& segmented_tuning_for(const DeviceDescription& desc) {
  return tuning_row_for(std::span<const SegmentedTuning>(kRows), desc);
}

bool rows_cut_into_views(const SortRequest& r) {
  if (r.rows <= 1) return true;
  if (r.offset_bytes != 0) return false;
  for (std::size_t bytes : {key_size(r.type), r.value_bytes})
    if ((r.row_length * bytes) % kViewAlign != 0) return false;
  return true;
}

SegmentedChoice choose_segmented(const DeviceDescription& device, const SortRequest& r) {
  SegmentedChoice c;
  const SegmentedTuning& row = segmented_tuning_for(device);
  c.row = &row;
  c.position_bytes = r.n > (std::uint64_t(1) << 32) ? 8 : 4;  // positions 0..n-1
  c.segment_bytes = r.rows > (std::uint64_t(1) << 32) ? 8 : 4;
  const bool uniform = r.offset_bytes == 0;
  const std::uint64_t length = r.row_length;
  const bool specialised = automatic(r.options);
  if (r.rows <= 1)
    c.bin = SegmentedBin::per_row;  // one segment: the 1-D sort itself
  else if (!uniform && specialised && row.offsets_binned && row.binned_groups_per_compute_unit != 0 &&
           r.n < (std::uint64_t(1) << 32) &&
           segmented_binned_fits(device, r.type, r.value_bytes, r.positions))
    c.bin = SegmentedBin::binned;  // lengths binned on the device: nothing read back
  else if (!uniform && specialised && row.tiles_max_length != 0 &&
           segmented_tiles_offsets_shape(device, r.type, r.value_bytes, r.positions, r.n).window != 0)
    c.bin = SegmentedBin::tiles_or_portable;  // the longest segment decides on the device, one word read back
  else if (uniform && specialised && row.tiles_max_length != 0 && length <= row.tiles_max_length &&
           segmented_tiles_shape(device, r.type, r.value_bytes, r.positions, r.rows, length).rows_per_group != 0)
    c.bin = SegmentedBin::tiles;
  else if (uniform && row.per_row_min_length != 0 && length >= row.per_row_min_length &&
           r.rows <= row.per_row_max_rows && rows_cut_into_views(r))
    c.bin = SegmentedBin::per_row;  // a few huge rows: the 1-D sort's own passes per row
  else if (uniform && specialised && device.backend == "cuda" && row.onesweep_min_length != 0 &&
           length >= row.onesweep_min_length &&
           segmented_onesweep_takes_shape(device, r.type, r.value_bytes, r.rows, length, r.options, r.positions))
    c.bin = SegmentedBin::onesweep;
  else
    c.bin = SegmentedBin::portable;

  const SegmentedPolicyOverride& o = g_override;
  if (o.bin) {
    if (*o.bin == SegmentedBin::per_row && !rows_cut_into_views(r))
      throw Error(errc::invalid_argument, "segmented policy: the per-row bin takes uniform rows of whole 4096-byte "
                                          "blocks (or one segment), not this request");
    c.bin = *o.bin;
  }
  for (auto [field, value] : {std::pair{&c.position_bytes, o.position_bytes}, std::pair{&c.segment_bytes, o.segment_bytes}}) {
    if (!value) continue;
    if (*value != 4 && *value != 8)
      throw Error(errc::invalid_argument, "segmented policy: positions and segment numbers are 4 or 8 bytes, not " +
                                              std::to_string(*value));
    *field = std::max(*field, *value);  // never narrower than the data need
  }
  c.narrow_positions = c.bin == SegmentedBin::onesweep && r.positions && r.value_bytes == 8 &&
                       length < (std::uint64_t(1) << 32) &&
                       o.narrow_positions.value_or(row.onesweep_narrow_positions);
  c.sort_n = c.bin == SegmentedBin::per_row && r.rows > 1 ? length : r.n;
  return c;
}

SegmentedPolicyOverride parse_segmented_policy_override(std::string_view spec) {
  SegmentedPolicyOverride o;
  while (!spec.empty()) {
    const std::string_view item = spec.substr(0, spec.find(','));
    spec.remove_prefix(std::min(spec.size(), item.size() + 1));
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string_view name = item.substr(0, eq), value = eq == item.npos ? "" : item.substr(eq + 1);
    const auto bad = [&](const char* why) {
      return Error(errc::invalid_argument, "segmented policy: '" + std::string(item) + "': " + why);
    };
    if (name == "bin") {
      for (SegmentedBin b : {SegmentedBin::portable, SegmentedBin::per_row, SegmentedBin::tiles, SegmentedBin::onesweep,
                             SegmentedBin::tiles_or_portable, SegmentedBin::binned})
        if (value == to_string(b)) o.bin = b;
      if (!o.bin) throw bad("the bins are portable, per-row, tiles, onesweep, tiles-or-portable and binned");
    } else if (name == "position_bytes" || name == "segment_bytes") {
      if (value != "4" && value != "8") throw bad("4 or 8");
      (name == "position_bytes" ? o.position_bytes : o.segment_bytes) = value == "4" ? 4 : 8;
    } else if (name == "narrow_positions") {
      if (value != "0" && value != "1") throw bad("0 or 1");
      o.narrow_positions = value == "1";
    } else if (name == "warp_items") {
      if (value.size() != 1 || value[0] < '1' || value[0] > '8') throw bad("1 to 8");
      o.warp_items = static_cast<std::uint32_t>(value[0] - '0');
    } else if (name == "tile_rank_max" || name == "warp_segments_max" || name == "segments_per_warp") {
      const std::uint32_t most = name == "tile_rank_max" ? 65536 : name == "warp_segments_max" ? 128 : 32;
      std::uint32_t v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || ec != std::errc{} || end != value.data() + value.size() || v > most)
        throw bad(("a count of keys up to " + std::to_string(most)).c_str());
      if (name == "segments_per_warp" && v == 0) throw bad("1 to 32");
      (name == "tile_rank_max" ? o.tile_rank_max : name == "warp_segments_max" ? o.warp_segments_max : o.segments_per_warp) = v;
    } else if (name == "block_min_row" || name == "onesweep_min" || name == "block_max") {
      std::uint64_t v = 0;
      const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (value.empty() || ec != std::errc{} || end != value.data() + value.size()) throw bad("a count of keys");
      (name == "block_min_row" ? o.block_min_row : name == "onesweep_min" ? o.binned_onesweep_min : o.block_max) = v;
    } else {
      throw bad("unknown name (src/algorithms/segmented/segmented_policy.hpp, SegmentedPolicyOverride)");
    }
  }
  return o;
}

void set_segmented_policy_override(const SegmentedPolicyOverride& o) { g_override = o; }
const SegmentedPolicyOverride& segmented_policy_override() { return g_override; }

}  // namespace gpusort::algo
