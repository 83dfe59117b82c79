// The binned bin of segmented sorts (segmented_binned.hpp): the tile bin for the segments that fit
// its window, kernels/segmented_long.cl for the others, chosen on the device.
#include "algorithms/segmented/segmented_binned.hpp"

#include <algorithm>
#include <memory>

#include "algorithms/radix_policy.hpp"
#include "algorithms/segmented/segmented_listed.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "algorithms/segmented/segmented_tiles.hpp"
#include "algorithms/segmented/segmented_warp_segments.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint32_t kDigitBits = 4;  // the kernel's RADIX_BITS
constexpr std::uint32_t kLongRadix = 1u << kDigitBits;
constexpr std::uint32_t kBinGroup = 256;  // segmented_bin_long: one work-item per segment
constexpr std::uint32_t kMaxClasses = 8;  // block classes at most (segmented_bin_long's work[4 + c])
// the group list's length, its ticket, the huge list's length, spare, the block classes' lengths
constexpr std::uint64_t kWorkWords = 4 + kMaxClasses;

std::uint64_t sg_pad(std::uint64_t i) { return i + (i >> 5); }  // the kernels' SG_PAD

// The longest segments sorted in warps (0: none): never above the window, whose longer
// segments the long-segment kernels sort.
std::uint32_t warp_segments_max(const DeviceDescription& desc, std::uint64_t window) {
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(segmented_warp_segments_max(desc), window));
}

// CUDA's bins for the shorter segments, besides the tiles: the warps' (up to warp_max keys), then
// the block classes (class c: 2^(class_lo_log + c - 1) + 1 to 2^(class_lo_log + c) keys, the 1-D
// one-block sort's policy for the class's longest; the tuning row's binned_block_max_length at
// most); the tiles keep what is left of their window, the long-segment kernels the rest.
struct ShortBins {
  std::uint32_t warp_max = 0;
  std::uint32_t class_lo_log = 0;
  std::vector<SingleTilePolicy> classes;
  std::uint64_t class_cap = 0;  // entries per class list: the segments longer than warp_max there can be
  std::uint64_t class_max() const {
    return classes.empty() ? 0 : std::uint64_t(1) << (class_lo_log + classes.size() - 1);
  }
  std::uint64_t others_max() const { return std::max<std::uint64_t>(warp_max, class_max()); }
  bool tiles(std::uint64_t window) const { return others_max() < window; }  // some length is left to them
};

ShortBins short_bins(const DeviceDescription& desc, key_type type, std::size_t value_bytes, std::uint64_t n,
                     std::uint64_t count, std::uint64_t window) {
  ShortBins b;
  b.warp_max = warp_segments_max(desc, window);
  const std::uint64_t most =
      segmented_policy_override().block_max.value_or(segmented_tuning_for(desc).binned_block_max_length);
  // Every class list holds as many entries as there can be segments longer than the warps' (one
  // buffer, the kernel's c * class_cap): warps of fewer than 32 keys (an override) would make that
  // several bytes per key, so they leave the classes off.
  if (b.warp_max < 32 || most == 0) return b;
  while ((std::uint64_t(1) << b.class_lo_log) <= b.warp_max) ++b.class_lo_log;  // the first power above
  for (std::uint32_t log = b.class_lo_log; (std::uint64_t(1) << log) <= most && b.classes.size() < kMaxClasses;
       ++log) {
    const RadixPolicy p =
        choose_radix_policy(desc, type, value_bytes, std::uint64_t(1) << log, SortOptions{}, RadixPolicyOverride{});
    if (p.path != RadixPath::single_tile) break;  // longer ones go to the tiles
    b.classes.push_back(p.single_tile);
  }
  b.class_cap = std::max<std::uint64_t>(1, std::min(count, n / (std::uint64_t(b.warp_max) + 1)));
  return b;
}

// The fixed grid of a block class's launch: the SMs' threads, blocks never more than the list's capacity.
std::uint64_t class_blocks(const DeviceDescription& desc, const SingleTilePolicy& p, std::uint64_t cap) {
  const std::uint64_t per_sm = std::clamp<std::uint64_t>(2048 / std::max(1u, p.threads), 1, 32);
  return std::min(cap, std::uint64_t(std::max(1u, desc.compute_units)) * per_sm);
}

// kernels/segmented_long.cl's layout: values[2][slots] and keys[2][slots], the tile's and the
// segment's counters, partial sums, LONG_CONTROL_WORDS.
std::uint64_t long_local_bytes(std::uint64_t slots, std::size_t key_bytes, std::size_t value_bytes,
                               std::uint32_t group) {
  const std::uint64_t words = 2 * sg_pad(std::uint64_t(kLongRadix) * group) + group + (4 + 2 * kLongRadix + 1);
  return 2 * slots * (key_bytes + value_bytes) + 4 * words;
}

// The list of long segments holds at most this many entries: each is longer than the window.
std::uint64_t max_long_segments(std::uint64_t window, std::uint64_t n, std::uint64_t count) {
  return std::max<std::uint64_t>(1, std::min(count, n / (window + 1)));
}

rt::Program& long_program(SortJob& sort, std::uint32_t group) {
  std::vector<std::string> defines = sort.key_defines(group);
  defines.push_back("RADIX_BITS=" + std::to_string(kDigitBits));
  return sort.device.program("segmented_long.cl", defines);
}

}  // namespace

SegmentedLongShape segmented_long_shape(const DeviceDescription& desc, key_type type, std::size_t value_bytes) {
  SegmentedLongShape s;
  const SegmentedTuning& row = segmented_tuning_for(desc);
  s.group = segmented_tiles_offsets_shape(desc, type, value_bytes, false, 1).group;
  if (row.binned_groups_per_compute_unit == 0 || s.group < kLongRadix || s.group % kLongRadix != 0) return s;
  s.groups = std::uint64_t(std::max(1u, desc.compute_units)) * row.binned_groups_per_compute_unit;
  s.passes = static_cast<std::uint32_t>((key_size(type) * 8 + kDigitBits - 1) / kDigitBits);
  for (std::uint64_t tile = std::max<std::uint64_t>(s.group, row.binned_long_tile); tile >= s.group; tile /= 2) {
    const std::uint64_t slots = single_group_slots(tile);
    const std::uint64_t bytes = long_local_bytes(slots, key_size(type), value_bytes, s.group);
    if (bytes <= desc.local_memory_bytes) {
      s.tile = static_cast<std::uint32_t>(tile);
      s.slots = slots;
      s.local_bytes = bytes;
      break;
    }
  }
  return s;
}

bool segmented_binned_fits(const DeviceDescription& desc, key_type type, std::size_t value_bytes, bool positions) {
  return segmented_tiles_offsets_shape(desc, type, value_bytes, positions, 1).window != 0 &&
         segmented_long_shape(desc, type, value_bytes).tile != 0;
}

std::uint64_t segmented_binned_temp_bytes(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                          bool positions, std::uint64_t n, std::uint64_t count,
                                          const SortOptions& options) {
  const std::uint64_t window = segmented_tiles_offsets_shape(desc, type, value_bytes, positions, 1).window;
  std::uint64_t bytes = temp_request_bytes(kWorkWords * sizeof(std::uint32_t)) +
                        temp_request_bytes(sizeof(std::uint64_t) * max_long_segments(window, n, count)) +
                        temp_request_bytes(n * key_size(type));
  if (value_bytes != 0) bytes += temp_request_bytes(n * value_bytes);
  const ShortBins bins = short_bins(desc, type, value_bytes, n, count, window);
  if (bins.warp_max != 0 && bins.tiles(window)) bytes += temp_request_bytes(sizeof(std::uint32_t) * ceil_div(n, window));
  if (!bins.classes.empty()) bytes += temp_request_bytes(sizeof(std::uint64_t) * bins.class_cap * bins.classes.size());
  return bytes + segmented_listed_temp_bytes(choose_segmented_listed_policy(desc, type, value_bytes, n, count, options));
}

void segmented_binned_sort(SegmentedJob& job) {
  SortJob& sort = job.sort;
  const SegmentShape& seg = job.segments;
  rt::Device& dev = sort.device;
  const DeviceDescription& desc = dev.description();
  if (!sort.options.comparator.empty() || !sort.registered_order.empty())
    throw Error(errc::unsupported, "segmented binned: a run-time comparator is sorted by another bin");
  if (seg.uniform()) throw Error(errc::invalid_argument, "segmented binned: the bin takes segments by offsets");
  if (seg.offset_bytes != 4 && seg.offset_bytes != 8)
    throw Error(errc::invalid_argument, "segmented binned: offsets are 4 or 8 bytes, not " +
                                            std::to_string(seg.offset_bytes));
  if (seg.offsets_byte_offset % seg.offset_bytes != 0)
    throw Error(errc::invalid_argument, "segmented binned: the offsets start inside an offset");
  if (sort.n >= (std::uint64_t(1) << 32))
    throw Error(errc::invalid_argument, "segmented binned: the bin takes fewer than 2^32 keys");
  const bool positions = sort.values_are_positions;
  if (positions && sort.value_bytes != 4 && sort.value_bytes != 8)
    throw Error(errc::invalid_argument, "segmented binned: argsort indices are 4 or 8 bytes, not " +
                                            std::to_string(sort.value_bytes));
  if (sort.n == 0 || seg.count == 0) {
    sort.values_are_positions = false;
    return;
  }
  const std::uint64_t window = segmented_tiles_offsets_shape(desc, sort.type, sort.value_bytes, positions, 1).window;
  const SegmentedLongShape s = segmented_long_shape(desc, sort.type, sort.value_bytes);
  if (window == 0 || s.tile == 0)
    throw Error(errc::unsupported, "segmented binned: no room in local memory for the bin");

  // Every temporary before the first launch that writes the keys.
  const rt::BufferPtr work = sort.temp(kWorkWords * sizeof(std::uint32_t));
  const rt::BufferPtr list = sort.temp(sizeof(std::uint64_t) * max_long_segments(window, sort.n, seg.count));
  const rt::BufferPtr keys_temp = sort.temp(sort.n * key_size(sort.type));
  const rt::BufferPtr values_temp = sort.value_bytes != 0 ? sort.temp(sort.n * sort.value_bytes) : keys_temp;
  // CUDA's warps and block classes: the class lists, and a word per tile window, set where the tiles
  // have a segment of their own
  const ShortBins bins = short_bins(desc, sort.type, sort.value_bytes, sort.n, seg.count, window);
  const bool tiles = bins.tiles(window);
  const std::uint64_t windows = ceil_div(sort.n, window);
  const rt::BufferPtr own_windows =
      bins.warp_max != 0 && tiles ? sort.temp(sizeof(std::uint32_t) * windows) : work;
  const rt::BufferPtr class_lists =
      bins.classes.empty() ? work : sort.temp(sizeof(std::uint64_t) * bins.class_cap * bins.classes.size());
  const SegmentedListedPolicy huge =
      choose_segmented_listed_policy(desc, sort.type, sort.value_bytes, sort.n, seg.count, sort.options);
  SegmentedListedTemps huge_temps = take_segmented_listed_temps(sort, huge);

  const SegmentedBuffers b = segmented_buffers(sort);  // (before the tiles clear the positions flag)
  const std::uint64_t first = seg.offsets_byte_offset / seg.offset_bytes;
  const std::uint32_t wide = seg.offset_bytes == 8 ? 1 : 0;
  rt::Program& program = long_program(sort, s.group);

  dev.fill_bytes(*work, 0, 0, kWorkWords * sizeof(std::uint32_t));
  if (own_windows != work) dev.fill_bytes(*own_windows, 0, 0, windows * sizeof(std::uint32_t));
  dev.launch(program.kernel("segmented_bin_long"), {ceil_div(seg.count, kBinGroup), kBinGroup, 0},
             {*seg.offsets, first, wide, seg.count, window,
              huge.min_length ? std::max(huge.min_length, window) : ~std::uint64_t(0), *work, *list,
              huge_temps.list ? *huge_temps.list : *list, tiles ? bins.others_max() : std::uint64_t(0), *own_windows,
              std::uint64_t(bins.warp_max), bins.class_max(), bins.class_lo_log, bins.class_cap, *class_lists});
  // (the warps and the classes before the tiles, which clear the positions flag)
  if (bins.warp_max != 0) segmented_warp_segments_sort(job, bins.warp_max);
  rt::Program* blocks = bins.classes.empty() ? nullptr : &segmented_rows_block_program(sort);
  for (std::size_t c = 0; c < bins.classes.size(); ++c) {
    const SingleTilePolicy& p = bins.classes[c];
    dev.launch(blocks->kernel(segmented_block_kernel("listed", p)),
               {class_blocks(desc, p, bins.class_cap), p.threads,
                static_cast<std::size_t>(single_tile_local_bytes(p, key_size(sort.type), sort.value_bytes))},
               {b.keys_in, b.values_in, b.keys_out, b.values_out, *seg.offsets, first, wide, *class_lists,
                std::uint64_t(c * bins.class_cap), *work, std::uint32_t(4 + c), sort.flip_arg(),
                std::uint32_t(positions ? 1 : 0)});
  }
  // the other segments that fit the window, positions made in the kernel
  if (tiles) segmented_tiles_sort(job, static_cast<std::uint32_t>(bins.others_max()), own_windows.get());
  dev.launch(program.kernel("segmented_long_sort"), {s.groups, s.group, static_cast<std::size_t>(s.local_bytes)},
             {b.keys_in, b.keys_out, b.values_in, b.values_out, *keys_temp, *values_temp, *seg.offsets, first, wide, *work,
              *list, std::uint32_t(positions ? 1 : 0), sort.flip_arg(), s.tile, static_cast<std::uint32_t>(s.slots)});
  if (huge.min_length != 0) segmented_listed_sort(job, huge, huge_temps, *work, *keys_temp, *values_temp, positions);
  sort.values_are_positions = false;
}

std::vector<std::string> segmented_binned_plan_steps(const DeviceDescription& desc, key_type type,
                                                     std::size_t value_bytes, bool positions, std::uint64_t n,
                                                     std::uint64_t count, const SortOptions& options) {
  std::vector<std::string> lines;
  const std::uint64_t window = segmented_tiles_offsets_shape(desc, type, value_bytes, positions, 1).window;
  const SegmentedLongShape s = segmented_long_shape(desc, type, value_bytes);
  if (window == 0 || s.tile == 0) {
    lines.push_back("no room in local memory for the binned bin: not this bin");
    return lines;
  }
  lines.push_back("segmented_long.cl segmented_bin_long: " + std::to_string(ceil_div(count, kBinGroup)) +
                  " groups of " + std::to_string(kBinGroup) + " work-items list the segments longer than " +
                  std::to_string(window) + " keys on the device (an atomic counter, zeroed by a fill; nothing read "
                  "back)");
  const ShortBins bins = short_bins(desc, type, value_bytes, n, count, window);
  if (bins.warp_max != 0) lines.push_back(segmented_warp_segments_plan_step(desc, count, bins.warp_max));
  for (std::size_t c = 0; c < bins.classes.size(); ++c) {
    const SingleTilePolicy& p = bins.classes[c];
    const std::uint64_t most = std::uint64_t(1) << (bins.class_lo_log + c);
    const std::uint64_t least = c == 0 ? bins.warp_max + 1 : most / 2 + 1;
    lines.push_back("segmented_rows_block.cl " + segmented_block_kernel("listed", p) + ": the segments of " +
                    std::to_string(least) + " to " + std::to_string(most) +
                    " keys, listed by segmented_bin_long, a fixed grid of " +
                    std::to_string(class_blocks(desc, p, bins.class_cap)) + " blocks of " + std::to_string(p.threads) +
                    " threads each sorting one segment at a time by the 1-D one-block sort for " + std::to_string(most) +
                    " keys (" +
                    (p.bitonic_log2 ? "a bitonic network in registers" : "8-bit digit passes, warp-ranked") + ")");
  }
  if (bins.tiles(window))
    for (const std::string& line : segmented_tiles_plan_steps(desc, type, value_bytes, positions, n, count, 0))
      lines.push_back("tiles: " + line + (bins.others_max() != 0 && line.find("segmented_tiles_offsets") != std::string::npos
                                              ? " (segments of up to " + std::to_string(bins.others_max()) +
                                                    " keys left to the kernels above)"
                                              : ""));
  lines.push_back("segmented_long.cl segmented_long_sort: a fixed grid of " + std::to_string(s.groups) +
                  " groups of " + std::to_string(s.group) + " work-items, each taking listed segments in turn: up to " +
                  std::to_string(s.passes) + " stable 4-bit digit passes over global memory, tiles of " +
                  std::to_string(s.tile) + " keys, " + std::to_string(s.local_bytes) +
                  " bytes of local memory, temporaries as large as the keys and values");
  for (const std::string& line :
       segmented_listed_plan_steps(choose_segmented_listed_policy(desc, type, value_bytes, n, count, options)))
    lines.push_back(line);
  return lines;
}

}  // namespace gpusort::algo
