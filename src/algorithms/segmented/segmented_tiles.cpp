// The tile bin of segmented sorts (segmented_tiles.hpp): rows of one length, as many whole rows per
// work-group as its tile holds, sorted in local memory by kernels/segmented_tiles.cl.
#include "algorithms/segmented/segmented_tiles.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <memory>

#include "algorithms/radix_policy.hpp"
#include "algorithms/radix_tuning.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint32_t kDigitBits = 4;  // the kernel's RADIX_BITS: 16 counters per work-item
constexpr std::uint64_t kMaxTile = 65536;  // u16 tile positions

// The CUDA row's forms were measured on an H100 (2026-12-06, lab/perf/h100-2026-12-06/segmented-blocks):
// a block per row with the 1-D one-block sort took rows of 64 to 1024 f32 keys 1.9-11.6x faster than
// the tile of several rows (262144 x 64 keys alone 0.165 ms against 1.01), and four rows per lane
// took the warp rows of 32 keys from 0.482 ms (one row per lane, the key carried) to 0.298. Its tile
// shape (256 threads, tiles of up to 4096 keys) and the other rows are not measured.
constexpr SegmentedTilesTuning kRows[] = {
    {.name = "cuda-generic",
     .device_class = "cuda",
     .measured_on = "cuda:sm_90:H100 (warp items, block rows)",
     .note = "rows of up to 32 keys in warp lanes, 4 rows per lane; rows of 33 keys and more a block each "
             "(the 1-D one-block sort); the tile (256 threads, up to 4096 keys) where no one-block sort fits",
     .group = 256,
     .max_tile = 4096,
     .groups_per_compute_unit = 4,
     .warp_max_row = 32,
     .warp_items = 4,
     .block_min_row = 33,
     // counted places for short segments by offsets: not timed on a GPU yet (tile_rank_max=64 to try)
     .rank_max_segment = 0},
    {.name = "cpu",
     .device_class = "cpu",
     .measured_on = "",
     .note = "PoCL on the CPU: 16 work-items, tiles of up to 4096 keys; by offsets, tiles of segments of up to "
             "64 keys ranked (not measured)",
     .group = 16,
     .max_tile = 4096,
     .groups_per_compute_unit = 2,
     .warp_max_row = 0,
     .warp_items = 1,
     .block_min_row = 0,
     .rank_max_segment = 64},
    {.name = "gpu-generic",
     .device_class = "",
     .measured_on = "",
     .note = "256 work-items, tiles of up to 4096 keys, 4 groups per compute unit (not measured)",
     .group = 256,
     .max_tile = 4096,
     .groups_per_compute_unit = 4,
     .warp_max_row = 0,
     .warp_items = 1,
     .block_min_row = 0,
     .rank_max_segment = 0},
};

std::uint32_t fitted_group(const DeviceDescription& desc, const SegmentedTilesTuning& row) {
  std::uint32_t group = row.group;
  while (group > 16 && group > desc.max_work_group_size) group >>= 1;
  return group;
}

std::uint32_t bits_of(std::uint64_t x) {
  std::uint32_t b = 0;
  while (x >> b) ++b;
  return b;
}

std::uint64_t capacity_for(const DeviceDescription& desc, key_type type, std::size_t value_bytes, bool positions,
                           bool offsets = false) {
  const SegmentedTilesTuning& row = segmented_tiles_tuning_for(desc);
  const std::uint32_t group = fitted_group(desc, row);
  if (group < 16 || group > desc.max_work_group_size) return 0;
  std::uint64_t lo = 0, hi = std::min(row.max_tile, kMaxTile);  // the largest tile that fits
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (segmented_tiles_local_bytes(mid, key_size(type), value_bytes, positions, group, offsets) <=
        desc.local_memory_bytes)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace

std::span<const SegmentedTilesTuning> segmented_tiles_tuning_rows() { return kRows; }

const SegmentedTilesTuning& segmented_tiles_tuning_for(const DeviceDescription& desc) {
  return tuning_row_for(std::span<const SegmentedTilesTuning>(kRows), desc);
}

std::uint64_t segmented_tiles_local_bytes(std::uint64_t tile, std::size_t key_bytes, std::size_t value_bytes,
                                          bool positions, std::uint32_t group, bool offsets) {
  const std::uint64_t slots = single_group_slots(tile);  // the same SG_PAD spare slots, 16-aligned
  const std::uint64_t entries = std::uint64_t(1u << kDigitBits) * group;
  const std::uint64_t words = (entries + (entries >> 5) + group + 1 + 3) / 4 * 4;  // the kernel's ST_WORDS
  const std::uint64_t values = positions ? 0 : value_bytes;
  const std::uint64_t u16_arrays = offsets ? 3 : 2;  // the tile positions twice, the row starts
  const std::uint64_t short_start_bytes = offsets ? 4 * ((slots + 31) / 32) : 0;  // a bit per position
  return slots * (values + 2 * key_bytes + u16_arrays * sizeof(std::uint16_t)) + 4 * words + short_start_bytes;
}

std::uint64_t segmented_tiles_capacity(const rt::Device& device, key_type type, std::size_t value_bytes,
                                       bool positions) {
  return capacity_for(device.description(), type, value_bytes, positions);
}

std::uint64_t segmented_tiles_window(const rt::Device& device, key_type type, std::size_t value_bytes,
                                     bool positions) {
  return capacity_for(device.description(), type, value_bytes, positions, true) / 2;
}

SegmentedTilesShape segmented_tiles_shape(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                          bool positions, std::uint64_t rows, std::uint64_t row_length) {
  SegmentedTilesShape s;
  s.tuning = &segmented_tiles_tuning_for(desc);
  s.group = fitted_group(desc, *s.tuning);
  s.key_passes = static_cast<std::uint32_t>((key_size(type) * 8 + kDigitBits - 1) / kDigitBits);
  if (desc.backend == "cuda" && row_length > 0 && row_length <= std::min(s.tuning->warp_max_row, 32u) &&
      s.group % 32 == 0 && rows > 0) {
    s.warp = true;
    s.warp_width_log2 = bits_of(row_length - 1);  // 2^k >= row_length lanes
    s.rows_per_group = s.group >> s.warp_width_log2;
    s.warp_items = std::clamp<std::uint32_t>(
        static_cast<std::uint32_t>(segmented_policy_override().warp_items.value_or(s.tuning->warp_items)), 1, 8);
    s.groups = ceil_div(rows, s.rows_per_group * s.warp_items);
    s.key_passes = 0;
    return s;
  }
  const std::uint64_t cap = capacity_for(desc, type, value_bytes, positions);
  const std::uint64_t block_min = segmented_policy_override().block_min_row.value_or(s.tuning->block_min_row);
  // (rows the tile could take: the bin's capacity is the same in either form)
  if (desc.backend == "cuda" && block_min != 0 && row_length >= block_min && row_length <= cap && rows > 0 &&
      rows <= std::uint64_t(0x7FFFFFFF)) {  // CUDA's grid
    // the 1-D radix sort's own choice for one row: a one-block sort, or nothing (longer than its tiles)
    const RadixPolicy p = choose_radix_policy(desc, type, value_bytes, row_length, SortOptions{}, RadixPolicyOverride{});
    if (p.path == RadixPath::single_tile) {
      s.block = true;
      s.block_sort = p.single_tile;
      s.group = p.single_tile.threads;
      s.rows_per_group = 1;
      s.groups = rows;
      s.local_bytes = single_tile_local_bytes(p.single_tile, key_size(type), value_bytes);
      s.key_passes = p.single_tile.bitonic_log2 ? 0 : static_cast<std::uint32_t>(key_size(type));  // 8-bit digits
      return s;
    }
  }
  if (rows == 0 || row_length == 0 || row_length > cap) return s;
  // Whole tiles where there are rows enough; fewer rows per group where that leaves groups idle.
  const std::uint64_t spread = std::uint64_t(std::max(1u, desc.compute_units)) * s.tuning->groups_per_compute_unit;
  s.rows_per_group = std::clamp<std::uint64_t>(ceil_div(rows, spread), 1, cap / row_length);
  s.groups = ceil_div(rows, s.rows_per_group);
  const std::uint64_t tile = s.rows_per_group * row_length;
  s.slots = single_group_slots(tile);
  s.local_bytes = segmented_tiles_local_bytes(tile, key_size(type), value_bytes, positions, s.group);
  s.row_passes = row_length > 1 ? (bits_of(s.rows_per_group - 1) + kDigitBits - 1) / kDigitBits : 0;
  if (row_length <= 1) s.key_passes = 0;
  return s;
}

SegmentedTilesShape segmented_tiles_offsets_shape(const DeviceDescription& desc, key_type type,
                                                  std::size_t value_bytes, bool positions, std::uint64_t n) {
  SegmentedTilesShape s;
  s.tuning = &segmented_tiles_tuning_for(desc);
  s.group = fitted_group(desc, *s.tuning);
  s.key_passes = static_cast<std::uint32_t>((key_size(type) * 8 + kDigitBits - 1) / kDigitBits);
  s.window = capacity_for(desc, type, value_bytes, positions, true) / 2;
  if (s.window == 0 || n == 0) return s;
  s.groups = ceil_div(n, s.window);
  s.slots = single_group_slots(2 * s.window);
  s.local_bytes = segmented_tiles_local_bytes(2 * s.window, key_size(type), value_bytes, positions, s.group, true);
  s.row_passes = (bits_of(2 * s.window - 1) + kDigitBits - 1) / kDigitBits;
  s.rank_max = segmented_policy_override().tile_rank_max.value_or(s.tuning->rank_max_segment);
  return s;
}

rt::Program& segmented_rows_block_program(SortJob& sort) {
  return sort.device.program("segmented_rows_block.cl",
                             radix_single_tile_program_defines(radix_tuning_for(sort.device.description()), sort.type,
                                                               sort.value_bytes));
}

std::string segmented_block_kernel(const char* form, const SingleTilePolicy& t) {
  return std::string("segmented_") + form +
         (t.bitonic_log2 ? "_bitonic_" + std::to_string(t.bitonic_log2)
                         : "_tile_" + std::to_string(t.threads) + "_" + std::to_string(t.items));
}

namespace {

// warp_items: the warp kernel's rows per lane (a program of its own where it is not 1)
rt::Program& tile_program(SortJob& sort, std::uint32_t group, std::uint32_t warp_items = 1) {
  std::vector<std::string> defines = sort.key_defines(group);
  defines.push_back("RADIX_BITS=" + std::to_string(kDigitBits));
  if (warp_items != 1) defines.push_back("WARP_ROW_ITEMS=" + std::to_string(warp_items));
  return sort.device.program("segmented_tiles.cl", defines);
}

std::string block_kernel(const SegmentedTilesShape& s) { return segmented_block_kernel("rows", s.block_sort); }

void sort_offsets(SegmentedJob& job, std::uint32_t short_max, rt::Buffer* own_windows) {
  SortJob& sort = job.sort;
  const SegmentShape& seg = job.segments;
  rt::Device& dev = sort.device;
  const bool positions = sort.values_are_positions;
  if (seg.offset_bytes != 4 && seg.offset_bytes != 8)
    throw Error(errc::invalid_argument, "segmented tiles: offsets are 4 or 8 bytes, not " + std::to_string(seg.offset_bytes));
  if (seg.offsets_byte_offset % seg.offset_bytes != 0)
    throw Error(errc::invalid_argument, "segmented tiles: the offsets start inside an offset");
  const SegmentedTilesShape s = segmented_tiles_offsets_shape(dev.description(), sort.type, sort.value_bytes, positions, sort.n);
  if (s.window == 0) throw Error(errc::unsupported, "segmented tiles: no room in local memory for a tile");
  const SegmentedBuffers b = segmented_buffers(sort);
  dev.launch(tile_program(sort, s.group).kernel("segmented_tiles_offsets"),
             {s.groups, s.group, static_cast<std::size_t>(s.local_bytes)},
             {b.keys_in, b.keys_out, b.values_in, b.values_out, *seg.offsets,
              std::uint64_t(seg.offsets_byte_offset / seg.offset_bytes), std::uint32_t(seg.offset_bytes == 8 ? 1 : 0),
              seg.count, static_cast<std::uint32_t>(s.window), std::uint32_t(positions ? 1 : 0), sort.flip_arg(),
              s.rank_max, short_max, own_windows ? *own_windows : *seg.offsets, static_cast<std::uint32_t>(s.slots)});
}

}  // namespace

void segmented_tiles_sort(SegmentedJob& job, std::uint32_t short_max, rt::Buffer* own_windows) {
  SortJob& sort = job.sort;
  const SegmentShape& seg = job.segments;
  if (!sort.options.comparator.empty() || !sort.registered_order.empty())
    throw Error(errc::unsupported, "segmented tiles: a run-time comparator is sorted by another bin");
  const bool positions = sort.values_are_positions;
  if (positions && sort.value_bytes != 4 && sort.value_bytes != 8)
    throw Error(errc::invalid_argument, "segmented tiles: argsort indices are 4 or 8 bytes, not " +
                                            std::to_string(sort.value_bytes));
  if (sort.value_bytes != 0 && sort.values == nullptr)
    throw Error(errc::invalid_argument, "segmented tiles: value bytes given without a values buffer");
  if (sort.n == 0 || seg.count == 0) {
    sort.values_are_positions = false;
    return;
  }
  rt::Device& dev = sort.device;
  std::unique_ptr<rt::Event> start = sort.options.verbose ? dev.record() : nullptr;
  std::string what;
  if (!seg.uniform()) {
    if (short_max != 0 && own_windows == nullptr)
      throw Error(errc::invalid_argument, "segmented tiles: short segments left to another kernel need the windows' words");
    sort_offsets(job, short_max, own_windows);
    what = std::to_string(seg.count) + " segments by offsets";
  } else {
    const std::uint64_t length = seg.row_length != 0 ? seg.row_length : sort.n / seg.count;
    if (length == 0 || length * seg.count != sort.n)
      throw Error(errc::invalid_argument, "segmented tiles: " + std::to_string(seg.count) + " rows do not cut " +
                                              std::to_string(sort.n) + " keys evenly");
    const SegmentedTilesShape s =
        segmented_tiles_shape(dev.description(), sort.type, sort.value_bytes, positions, seg.count, length);
    if (s.rows_per_group == 0)
      throw Error(errc::invalid_argument,
                  "segmented tiles: rows of " + std::to_string(length) + " keys exceed this bin's capacity of " +
                      std::to_string(segmented_tiles_capacity(dev, sort.type, sort.value_bytes, positions)));
    const SegmentedBuffers b = segmented_buffers(sort);
    if (s.block)
      dev.launch(segmented_rows_block_program(sort).kernel(block_kernel(s)), {s.groups, s.group, static_cast<std::size_t>(s.local_bytes)},
                 {b.keys_in, b.values_in, b.keys_out, b.values_out, static_cast<std::uint32_t>(length), sort.flip_arg(),
                  std::uint32_t(positions ? 1 : 0)});
    else if (s.warp)
      dev.launch(tile_program(sort, s.group, s.warp_items).kernel("segmented_tiles_warp"), {s.groups, s.group, 0},
                 {b.keys_in, b.keys_out, b.values_in, b.values_out, seg.count, static_cast<std::uint32_t>(length),
                  s.warp_width_log2, std::uint32_t(positions ? 1 : 0), sort.flip_arg()});
    else
      dev.launch(tile_program(sort, s.group).kernel("segmented_tiles_rows"),
                 {s.groups, s.group, static_cast<std::size_t>(s.local_bytes)},
                 {b.keys_in, b.keys_out, b.values_in, b.values_out, seg.count, static_cast<std::uint32_t>(length),
                  static_cast<std::uint32_t>(s.rows_per_group), std::uint32_t(positions ? 1 : 0), sort.flip_arg(),
                  static_cast<std::uint32_t>(s.slots)});
    what = std::to_string(seg.count) + " rows of " + std::to_string(length) + " keys, " +
           (s.block ? std::string("a block each") : std::to_string(s.rows_per_group) + (s.warp ? " per block in warp lanes" : " per group"));
  }
  sort.values_are_positions = false;
  if (start) {
    std::unique_ptr<rt::Event> stop = dev.record();
    stop->wait();
    std::fprintf(stderr, "segmented tiles: %s %8.3f ms\n", what.c_str(), stop->elapsed_ms_since(*start));
  }
}

std::vector<std::string> segmented_tiles_plan_steps(const DeviceDescription& desc, key_type type,
                                                    std::size_t value_bytes, bool positions, std::uint64_t n,
                                                    std::uint64_t count, std::uint64_t row_length) {
  const bool offsets = row_length == 0;
  const SegmentedTilesShape s = offsets ? segmented_tiles_offsets_shape(desc, type, value_bytes, positions, n)
                                        : segmented_tiles_shape(desc, type, value_bytes, positions, count, row_length);
  const SegmentedTilesTuning& t = *s.tuning;
  std::vector<std::string> lines;
  lines.push_back(std::string("tuning row ") + t.name + " (measured on " + (*t.measured_on ? t.measured_on : "nothing yet") +
                  "): " + t.note);
  const std::string indices = positions ? ", indices made in the kernel" : "";
  const std::string passes = ", " + std::to_string(s.key_passes) + " digit passes over the keys and up to " +
                             std::to_string(s.row_passes) + " over the rows";
  if (offsets) {
    if (s.window == 0) {
      lines.push_back("no room in local memory for a tile: not this bin");
      return lines;
    }
    lines.push_back("segmented_tiles.cl segmented_tiles_offsets: " + std::to_string(s.groups) + " groups of " +
                    std::to_string(s.group) + " work-items, each the segments of at most " +
                    std::to_string(s.window) + " keys that start in its window of " + std::to_string(s.window) +
                    " keys, " + std::to_string(s.local_bytes) + " bytes of local memory" + passes + indices +
                    "; longer segments left to another bin");
    if (s.rank_max != 0)
      lines.push_back("tiles whose segments hold at most " + std::to_string(s.rank_max) +
                      " keys each: every key's place counted in its segment instead of the digit passes");
    return lines;
  }
  if (s.rows_per_group == 0) {
    lines.push_back("rows of " + std::to_string(row_length) + " keys exceed the tile bin's capacity of " +
                    std::to_string(capacity_for(desc, type, value_bytes, positions)) + " keys: not this bin");
    return lines;
  }
  if (s.block) {
    const SingleTilePolicy& b = s.block_sort;
    lines.push_back("segmented_rows_block.cl " + block_kernel(s) + ": " + std::to_string(s.groups) +
                    " blocks of " + std::to_string(s.group) + " threads, one row of " + std::to_string(row_length) +
                    " keys each, " +
                    (b.bitonic_log2 ? "a bitonic network of " + std::to_string(std::uint64_t(1) << b.bitonic_log2) +
                                          " elements in registers"
                                    : std::to_string(s.key_passes) + " 8-bit digit passes, warp-ranked") +
                    ", " + std::to_string(s.local_bytes) + " bytes of shared memory" + indices);
    return lines;
  }
  if (s.warp) {
    lines.push_back("segmented_tiles.cl segmented_tiles_warp: " + std::to_string(s.groups) + " blocks of " +
                    std::to_string(s.group) + " threads, " + std::to_string(s.rows_per_group) + " rows of " +
                    std::to_string(row_length) + " keys per block and lane item, " +
                    std::to_string(s.warp_items) + " item(s) per lane, " + std::to_string(1u << s.warp_width_log2) +
                    " lanes per row, a bitonic network in registers, 0 bytes of shared memory" + indices);
    return lines;
  }
  lines.push_back("segmented_tiles.cl segmented_tiles_rows: " + std::to_string(s.groups) + " groups of " +
                  std::to_string(s.group) + " work-items, " + std::to_string(s.rows_per_group) + " rows of " +
                  std::to_string(row_length) + " keys per group, " + std::to_string(s.local_bytes) +
                  " bytes of local memory" + passes + indices);
  return lines;
}

}  // namespace gpusort::algo
