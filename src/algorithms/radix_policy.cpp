// Radix sort policy: the chooser, the -D lists and the layout of the temporaries (radix_policy.hpp).
// What was measured comes from the device's tuning row (radix_tuning.cpp); the rules here are the
// kernels' limits and the shapes of the size rules.
#include "algorithms/radix_policy.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <type_traits>
#include <utility>

#include "algorithms/algorithm.hpp"
#include "core/override_list.hpp"
#include "gpusort/errors.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint64_t kAny = ~0ull;

// Single tile shapes, smallest first: the smallest tile that holds n (the work is per tile; more
// threads hide more latency in the one block), among those whose keys and values fit max_regs
// registers per thread (items x registers per key + value; kernels/radix_single_tile.h has the same rule).
struct ShapeRow {
  std::uint32_t threads, items, max_regs;
};
constexpr ShapeRow kSingleTileShapes[] = {{256, 4, ~0u}, {512, 4, 32}, {512, 8, 32}, {1024, 8, 16}, {1024, 16, 16}};

// CUDA: every onesweep pass is a programmatic dependent launch of the kernel before it (its blocks
// start while that kernel's last ones finish, and wait for it in the kernel). The blocks of a pass
// (and of the histogram) let the next one start from before their scatter, except where a pass is
// one wave that fills more than half the SMs (more tiles than SMs / 2, at most SMs x min_blocks):
// there they let it start from their exit, since the next pass's waiting blocks would take the
// wave's free slots.
bool early_trigger_rule(std::uint64_t tiles, std::uint32_t compute_units, std::uint32_t min_blocks) {
  return tiles <= compute_units / 2 || tiles > std::uint64_t(compute_units) * min_blocks;
}
constexpr std::uint32_t kBitonicMinLog2 = 7, kBitonicMaxLog2 = 12;  // radix_small_bitonic_7 .. _12
// radix_histogram_lanes' blocks per SM (more where its u16 counters need shorter spans): about three
// waves of blocks with 64 KiB of counters, three of which fit an SM.
constexpr std::uint32_t kHistBlocksPerSm = 8;

// The default cap on n (0: the network never runs by default).
std::uint64_t bitonic_default_cap(const RadixTuning& t, key_type type, std::size_t vb) {
  const std::size_t ks = key_size(type);
  for (const BitonicCapRow& r : t.bitonic_caps)
    if (ks <= r.key_bytes_max && (vb != 0) == r.values) return r.max_log2 ? std::uint64_t(1) << r.max_log2 : 0;
  return 0;
}
// Static shared memory of the one-block sorts beside their dynamic buffers, at most: the single
// tile's block scan, a word per warp (up to 32; kernels/radix_single_tile.h; the network has none). A
// device whose limit the dynamic part just fills could not launch them.
constexpr std::uint64_t kOneBlockStaticBytes = 32 * 4;

// Bytes of one element of the network: a key's image, or (image << 32 | position) for pairs; 0 for
// 8-byte keys with values, which no element holds (the network does not take them).
std::uint64_t bitonic_element_bytes(std::size_t ks, std::size_t vb) {
  if (vb != 0) return ks <= 4 ? 8 : 0;
  return ks <= 4 ? 4 : 8;
}

// __launch_bounds__' blocks per SM for the onesweep pass: what its registers per thread allow.
std::uint32_t min_blocks_rule(std::size_t ks, std::size_t vb, bool split, std::uint32_t items) {
  if (vb == 16 || (vb != 0 && !split && items > 16)) return 2;  // values staged after the keys: up to 128 registers
  if (split && ks + vb > 8) return 2;                            // 16 bytes per key beside each other
  if (vb != 0 && (ks == 8 || items > 16)) return 3;
  if (ks == 8 && items > 16) return 3;  // 8-byte keys alone
  return 4;
}

// ---- the override seam ------------------------------------------------------------------------

RadixPolicyOverride g_override;

// The segments' tile shapes (kernels/radix_segments.cl instantiates each; 256 threads, whose 8 warps
// per block keep each pass's per-warp work small), smallest first: the first that holds a segment of
// n / 2^16 keys with room for uniform keys' spread (Poisson: 6 standard deviations and 64 keys more)
// and fits the device.
struct SegmentShapeRow {
  std::uint32_t threads, items;
};
constexpr SegmentShapeRow kSegmentShapes[] = {{256, 6}, {256, 10}, {256, 18}};
// The tuning row's segments row for these widths, if any. Float keys have rows' passes too, but
// take the segments only through the override (their top digits fail the skew check).
const SegmentsFromRow* segments_row(const RadixTuning& t, key_type type, std::size_t vb) {
  for (const SegmentsFromRow& r : t.segments_from)
    if (key_size(type) == r.key_bytes && vb == r.value_bytes) return &r;
  return nullptr;
}
// The tiles' passes of the widths' row (count first, no cap, where there is none): the form and the
// register cap, as {rank_first, min_blocks}.
std::pair<bool, std::uint32_t> segments_row_passes(const RadixTuning& t, key_type type, std::size_t vb) {
  const SegmentsFromRow* row = segments_row(t, type, vb);
  return row ? std::pair{row->rank_first, row->min_blocks} : std::pair{false, 0u};
}
bool segments_rule(const RadixTuning& t, key_type type, std::size_t vb, std::uint64_t n) {
  const SegmentsFromRow* r = segments_row(t, type, vb);
  return !is_float(type) && r && n >= r->n_from;
}
SegmentPolicy choose_segments(const DeviceDescription& desc, const RadixTuning& t, key_type type, std::size_t vb, std::uint64_t n,
                              const SortOptions& options, const OnesweepPolicy& os, const RadixPolicyOverride& o) {
  if (options.work_group_size != 0 || options.items_per_thread != 0) return {};  // the tiled path's shape
  if (is_complex(type)) return {};  // the segments' tiles move images, as the single tile does
  const std::size_t ks = key_size(type);
  if (!o.segments.value_or(segments_rule(t, type, vb, n)) || ks < 4 || os.portion != 0 || n > kOnesweepMaxN) return {};
  const double mean = double(n) / double(std::uint64_t(1) << kSegmentBits);
  const double want = mean + 6 * std::sqrt(mean) + 64;
  for (const SegmentShapeRow& r : kSegmentShapes) {
    const SingleTilePolicy tile{r.threads, r.items};
    if (double(tile.tile()) >= want && r.threads <= desc.max_work_group_size &&
        single_tile_local_bytes(tile, ks, vb) + kOneBlockStaticBytes <= desc.local_memory_bytes) {
      // the passes of the row of these widths (float keys too, when the override takes them)
      const SegmentsFromRow* row = segments_row(t, type, vb);
      const auto [rank_first, min_blocks] = segments_row_passes(t, type, vb);
      const bool interleaved = ks == 4 && vb == 4 && !is_float(type) && os.packed_pairs &&
                               o.segment_interleaved.value_or(row && row->interleaved);
      return {r.threads, r.items, o.segment_skew_percent.value_or(kSegmentTopSkewPercent),
              o.segment_rank_first.value_or(rank_first), o.segment_min_blocks.value_or(min_blocks), interleaved};
    }
  }
  return {};
}

SingleTilePolicy choose_single_tile(const DeviceDescription& desc, const RadixTuning& t, key_type type, std::size_t vb, std::uint64_t n,
                                    const SortOptions& options, const RadixPolicyOverride& o) {
  if (options.work_group_size != 0 || options.items_per_thread != 0) return {};  // the tiled path's shape
  if (is_complex(type)) return {};  // the one-block sorts move images, and a complex key's has no inverse
  const std::size_t ks = key_size(type);
  SingleTilePolicy s;
  // the bitonic network where it serves the type (kernels/radix_small_bitonic.h: the radix sort's output)
  const std::uint64_t bitonic_cap =
      bitonic_element_bytes(ks, vb) == 0
          ? 0
          : std::min({o.bitonic_max.value_or(bitonic_default_cap(t, type, vb)),
                      std::uint64_t(1) << kBitonicMaxLog2, o.single_tile_max.value_or(kAny)});
  if (n <= bitonic_cap) {
    s.bitonic_log2 = kBitonicMinLog2;
    while ((std::uint64_t(1) << s.bitonic_log2) < n) ++s.bitonic_log2;
    s.threads = 1u << (s.bitonic_log2 - 2), s.items = 4;
    if (s.threads <= desc.max_work_group_size &&
        single_tile_local_bytes(s, ks, vb) + kOneBlockStaticBytes <= desc.local_memory_bytes)
      return s;
    s = {};
  }
  const auto regs = static_cast<std::uint32_t>((ks + 3) / 4 + (vb + 3) / 4);
  for (const ShapeRow& r : kSingleTileShapes)
    if (r.items * regs <= r.max_regs && std::uint64_t(r.threads) * r.items >= n) {
      s = {r.threads, r.items};
      break;
    }
  const std::uint64_t cap =
      std::min<std::uint64_t>(s.tile(), o.single_tile_max.value_or(ks == 4 && vb == 0 ? t.single_tile_max_keys4 : kAny));
  const bool fits = n <= cap && s.threads <= desc.max_work_group_size &&
                    single_tile_local_bytes(s, ks, vb) + kOneBlockStaticBytes <= desc.local_memory_bytes;
  return fits ? s : SingleTilePolicy{};
}

// Local memory of radix_scatter (kernels/radix_passes.cl) and radix_onesweep_portable, at most: the
// tile's keys and their u32 tile positions (kept only with values; counted either way), padded one
// word in 32, the counters (kernels/radix_tile_split.h: 16 padded u32 per work-item for the split
// rounds, one u32 per warp and digit with warp votes), the group scan's words, three digit tables.
std::uint64_t portable_scatter_local_bytes(const PortablePolicy& p, std::size_t key_bytes) {
  const auto padded = [](std::uint64_t slots) { return slots + slots / 32 + 1; };
  const std::uint64_t tile = std::uint64_t(p.group) * p.items;
  const std::uint64_t counters = p.warp_rank ? p.group / 32 * kRadix : padded(16 * std::uint64_t(p.group));
  return padded(tile) * (key_bytes + 4) + counters * 4 + std::uint64_t(p.group) * 4 + std::uint64_t(kRadix) * (4 + 4 + 8);
}

PortablePolicy choose_portable(const DeviceDescription& desc, const RadixTuning& t, key_type type, std::uint64_t n,
                               const SortOptions& options, const RadixPolicyOverride& o) {
  PortablePolicy p;
  p.group = t.portable_group;
  p.items = t.portable_items;
  p.groups_per_compute_unit = t.portable_groups_per_compute_unit;
  p.group_digit_scan = t.portable_group_digit_scan;
  if (options.work_group_size != 0) p.group = static_cast<std::uint32_t>(options.work_group_size);
  if (options.items_per_thread != 0)
    p.items = static_cast<std::uint32_t>(std::min<std::size_t>(options.items_per_thread, 64));
  // Within the device's limits; tiles of at most 65536 keys (the kernels' u32 tile positions would
  // take more, but larger tiles were never measured).
  while (p.items > 1 && std::uint64_t(p.group) * p.items > 65536) p.items >>= 1;
  // Warp votes: NVIDIA's GPUs (CUDA intrinsics, or the same PTX inline under its OpenCL), whole warps
  const bool votes = rt::nvidia_gpu(desc) && o.warp_rank.value_or(true);
  for (;;) {
    p.warp_rank = votes && p.group % 32 == 0;
    if (p.group <= 1 || (p.group <= desc.max_work_group_size &&
                         portable_scatter_local_bytes(p, key_size(type)) <= desc.local_memory_bytes))
      break;
    p.group >>= 1;
  }
  p.spans = plan_spans(n, std::uint64_t(p.group) * p.items,
                       std::uint64_t(std::max(1u, desc.compute_units)) * p.groups_per_compute_unit);
  return p;
}

}  // namespace

bool onesweep_on_nvidia_opencl(const DeviceDescription& desc, std::uint64_t n) {
  return desc.backend == "opencl" && rt::nvidia_gpu(desc) && n <= kOnesweepMaxN;
}

std::uint64_t onesweep_pass_static_local_bytes(const OnesweepPolicy& os) {
  const std::uint64_t gpos = os.portion ? 8 : 4;  // gpos_t
  return kRadix * gpos + (os.group / 32) * 4 + 4;
}

namespace {

// NVIDIA's OpenCL (OnesweepPolicy::opencl): the cp.async switches and portions off, tiles and
// histogram copies within the device's local memory, and the register cap for min_blocks blocks per SM.
void fit_onesweep_to_opencl(RadixPolicy& p, const DeviceDescription& desc, const RadixTuning& t,
                            const SortOptions& options, const RadixPolicyOverride& o) {
  OnesweepPolicy& os = p.onesweep;
  os.opencl = true;
  os.packed_pairs = false;
  os.snapshot = 0;
  os.uniform_count = o.uniform_count.value_or(false);  // measured on CUDA only
  os.match_immediate = 0;                              // inline PTX of CUDA's form only
  if (!o.recompute_digit && p.value_bytes == 0 && key_size(p.type) == 4)
    os.recompute_digit = false;  // RadixTuning::recompute_keys4_from: measured on CUDA only
  os.portion = 0;
  const std::size_t ks = key_size(p.type);
  const auto fits = [&] {
    return onesweep_pass_local_bytes(p) + onesweep_pass_static_local_bytes(os) <= desc.local_memory_bytes;
  };
  std::uint32_t min_blocks = min_blocks_rule(ks, p.value_bytes, os.split_stage, os.items);
  if (os.split_stage && !fits() && !o.split_stage) {  // values staged after the keys' scatter instead
    os.split_stage = false;
    os.recompute_digit = false;  // the scatter reads staged digits once the values took the keys' place
    if (!o.items && options.items_per_thread == 0) os.items = t.opencl_unsplit_items;  // an explicit shape wins
    min_blocks = t.opencl_unsplit_min_blocks;
  }
  while (os.items > 1 && !fits()) {
    os.items = os.items > 4 ? os.items - 4 : os.items - 1;
    min_blocks = std::max(min_blocks, min_blocks_rule(ks, p.value_bytes, os.split_stage, os.items));
  }
  os.min_blocks = o.min_blocks.value_or(min_blocks);
  while (os.hist_copies > 8 && onesweep_hist_local_bytes(p) > desc.local_memory_bytes) os.hist_copies /= 2;
  // __launch_bounds__(group, min_blocks) on CUDA: 64K registers per SM, allocated 8 per thread
  os.max_registers = std::min<std::uint32_t>(255, 65536 / (os.group * std::max(1u, os.min_blocks)) / 8 * 8);
}

}  // namespace

void set_radix_policy_override(const RadixPolicyOverride& o) { g_override = o; }
const RadixPolicyOverride& radix_policy_override() { return g_override; }
ScopedRadixPolicyOverride::ScopedRadixPolicyOverride(const RadixPolicyOverride& o) : saved_(g_override) {
  g_override = o;
}
ScopedRadixPolicyOverride::~ScopedRadixPolicyOverride() { g_override = saved_; }

RadixPolicyOverride parse_radix_policy_override(std::string_view spec) {
  RadixPolicyOverride o;
  core::for_each_override(spec, "radix policy", [&](std::string_view name, std::uint64_t v, std::string_view item) {
    auto set = [&](auto& field, std::uint64_t max) {
      if (v > max)
        throw Error(errc::invalid_argument,
                    "radix policy: " + std::string(item) + " is out of range (max " + std::to_string(max) + ")");
      field = static_cast<typename std::remove_reference_t<decltype(field)>::value_type>(v);
    };
    // clang-format off
    if (name == "items") set(o.items, 64);
    else if (name == "min_blocks") set(o.min_blocks, 32);
    else if (name == "split_stage") set(o.split_stage, 1);
    else if (name == "recompute_digit") set(o.recompute_digit, 1);
    else if (name == "packed_pairs") set(o.packed_pairs, 1);
    else if (name == "uniform_count") set(o.uniform_count, 1);
    else if (name == "match_immediate") set(o.match_immediate, 2);
    else if (name == "snapshot") set(o.snapshot, 64);
    else if (name == "hist_copies") set(o.hist_copies, 32);
    else if (name == "no_skip_max_n") set(o.no_skip_max_n, kAny);
    else if (name == "portion") set(o.portion, kAny);
    else if (name == "segments") set(o.segments, 1);
    else if (name == "segment_skew_percent") set(o.segment_skew_percent, kAny);
    else if (name == "segment_rank_first") set(o.segment_rank_first, 1);
    else if (name == "segment_min_blocks") set(o.segment_min_blocks, 8);  // 8 x 256 threads fill an SM
    else if (name == "segment_interleaved") set(o.segment_interleaved, 1);
    else if (name == "overlap_passes") set(o.overlap_passes, 1);
    else if (name == "early_trigger") set(o.early_trigger, 1);
    else if (name == "single_tile_max") set(o.single_tile_max, kAny);
    else if (name == "bitonic_max") set(o.bitonic_max, kAny);
    else if (name == "single_group_max") set(o.single_group_max, kAny);
    else if (name == "single_group_size") set(o.single_group_size, 1u << 16);
    else if (name == "portable_onesweep") set(o.portable_onesweep, 1);
    else if (name == "spin_limit") set(o.spin_limit, ~0u);
    else if (name == "fallback_only") set(o.fallback_only, 1);
    else if (name == "lookback_window") set(o.lookback_window, 32);
    else if (name == "warp_rank") set(o.warp_rank, 1);
    else throw Error(errc::invalid_argument, "radix policy: unknown name '" + std::string(name) +
                                             "' (src/algorithms/radix_policy.hpp, RadixPolicyOverride)");
    // clang-format on
  });
  return o;
}

RadixSpans plan_spans(std::uint64_t n, std::uint64_t tile, std::uint64_t max_groups) {
  if (n == 0) return {1, tile};
  const std::uint64_t tiles = ceil_div(n, tile);
  const std::uint64_t min_groups = ceil_div(n, 1ull << 31);  // local u32 counters: a span stays below 2^31 keys
  std::uint64_t groups = std::min(tiles, std::max(max_groups, min_groups));
  if (groups == 0) groups = 1;
  const std::uint64_t tiles_per_group = ceil_div(tiles, groups);
  return {ceil_div(tiles, tiles_per_group), tiles_per_group * tile};
}

OnesweepPolicy choose_onesweep_policy(const RadixTuning& t, key_type type, std::size_t vb, std::uint64_t n,
                                      const SortOptions& options, const RadixPolicyOverride& o) {
  const std::size_t ks = key_size(type);
  const bool fl = is_float(type);
  OnesweepPolicy p;
  // values staged beside the keys where key + value bytes <= 8 (one barrier before a joint scatter,
  // still 3 blocks per SM), and 8+8-byte pairs in the row's range (2 blocks per SM)
  const bool wide_beside = ks == 8 && vb == 8 && n >= t.wide_pairs_beside_from && n < t.wide_pairs_beside_below;
  p.split_stage = vb != 0 && o.split_stage.value_or(ks + vb <= 8 || wide_beside);
  // Portions (below): the look-back's 30-bit counts cover fewer than 2^30 keys per launch; packed
  // stores address 32-bit positions, so portions never pack (and take the unpacked tile shapes)
  const bool portions = o.portion || n > kOnesweepMaxN;
  if (ks == 4 && vb == 4 && p.split_stage && !portions)
    for (const PackedFromRow& r : t.packed_from)
      if (r.float_keys == fl) p.packed_pairs = o.packed_pairs.value_or(n >= r.n_from);
  if (o.packed_pairs && t.packed_from.empty() && ks == 4 && vb == 4 && p.split_stage && !portions)
    p.packed_pairs = *o.packed_pairs;  // a row without packed pairs still takes the override's
  for (const OnesweepItemsRow& r : t.onesweep_items)
    if (ks >= r.key_min && ks <= r.key_max && vb >= r.value_min && vb <= r.value_max && n >= r.n_from &&
        n < r.n_below && (!r.packed_only || p.packed_pairs)) {
      p.items = r.items;
      break;
    }
  // small n: fewer keys per thread, so that there are enough tiles for the GPU's SMs
  const std::uint64_t want_items =
      n / (std::uint64_t(p.group) * (vb == 0 ? t.min_tiles_keys : t.min_tiles_pairs)) / 4 * 4;
  p.items = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.items, std::max<std::uint64_t>(4, want_items)));
  if (o.items) p.items = *o.items;
  if (options.items_per_thread != 0)
    p.items = static_cast<std::uint32_t>(std::min<std::size_t>(options.items_per_thread, 64));
  p.items = std::max<std::uint32_t>(1, std::min<std::uint32_t>(p.items, 64));
  p.min_blocks = o.min_blocks.value_or(min_blocks_rule(ks, vb, p.split_stage, p.items));
  // the scatter recomputes digits of integer keys staged apart (64-bit keys or pairs), and of 4-byte
  // keys alone from the row's n (their ranking is ALU-bound below)
  p.recompute_digit = !fl && !is_complex(type) && (vb == 0 || p.split_stage) &&
                      o.recompute_digit.value_or(ks == 8 || vb != 0 || (ks == 4 && n >= t.recompute_keys4_from));
  p.uniform_count =
      o.uniform_count.value_or(ks == 8 && vb == 8 && !p.split_stage && n >= t.uniform_count_wide_pairs_from);
  p.match_immediate = o.match_immediate.value_or(t.match_immediate);
  p.snapshot = std::min<std::uint32_t>(64, o.snapshot.value_or(ks == 8 && vb == 0 ? t.snapshot_keys8 : 0));
  // histogram counter copies: 32 up to four passes, 16 beyond, and for 4-byte keys in the row's range
  const bool copies16 =
      ks > 4 || (ks == 4 && vb == 0 && n >= t.hist_copies16_keys4_from && n < t.hist_copies16_keys4_below);
  p.hist_copies = o.hist_copies ? (*o.hist_copies == 16 ? 16 : 32) : copies16 ? 16 : 32;  // 64 KiB at most
  p.no_skip_max_n = o.no_skip_max_n.value_or(t.no_skip_max_n);
  if (portions) {
    const std::uint64_t want = std::min(o.portion.value_or(kOnesweepPortion), kOnesweepPortion);
    // whole groups of 16 tiles: a portion's keys start 4096-byte aligned (views of the keys buffer)
    p.portion = std::max<std::uint64_t>(1, want / (16 * p.tile())) * 16 * p.tile();
  }
  return p;
}

namespace {

SingleGroupPolicy choose_single_group(const DeviceDescription& desc, const RadixTuning& t, key_type type,
                                      std::size_t vb, const SortOptions& options, const RadixPolicyOverride& o) {
  SingleGroupPolicy s;
  const std::uint32_t radix = 1u << s.bits;
  s.group = t.single_group_size;
  if (const std::uint32_t g = o.single_group_size.value_or(0); g >= radix && (g & (g - 1)) == 0) s.group = g;
  while (s.group > radix && s.group > desc.max_work_group_size) s.group >>= 1;
  if (options.work_group_size != 0 || options.items_per_thread != 0) return s;  // the tiled path's shape
  if (s.group < radix || s.group > desc.max_work_group_size) return s;
  const std::uint64_t cap = std::min<std::uint64_t>(o.single_group_max.value_or(t.single_group_max_n), 1ull << 24);
  std::uint64_t lo = 0, hi = cap;  // the largest n <= cap whose buffers fit (the bytes grow with n)
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (single_group_local_bytes(mid, key_size(type), vb, s.group) <= desc.local_memory_bytes)
      lo = mid;
    else
      hi = mid - 1;
  }
  s.max_n = lo;
  return s;
}

}  // namespace

SingleGroupPolicy choose_single_group_policy(const DeviceDescription& desc, key_type type, std::size_t vb,
                                             const SortOptions& options, const RadixPolicyOverride& o) {
  return choose_single_group(desc, radix_tuning_for(desc), type, vb, options, o);
}

std::uint64_t onesweep_block_bytes(std::uint32_t passes) {
  return ceil_div(std::uint64_t(passes) * kRadix * 8 + 8, 4096) * 4096;  // + the -0/NaN flag word
}

RadixPolicy choose_radix_policy(const DeviceDescription& desc, key_type type, std::size_t vb, std::uint64_t n,
                                const SortOptions& options, const RadixPolicyOverride& o) {
  const RadixTuning& t = radix_tuning_for(desc);
  RadixPolicy p;
  p.tuning = &t;
  p.type = type, p.value_bytes = vb, p.n = n;
  p.passes = static_cast<std::uint32_t>((key_size(type) * 8 + kRadixBits - 1) / kRadixBits);
  const bool cuda = desc.backend == "cuda";
  // NVIDIA's OpenCL: radix_onesweep.cl as well, unless the override asks for the portable passes
  // (either kind)
  const bool nvidia_opencl = onesweep_on_nvidia_opencl(desc, n) && !o.portable_onesweep.has_value();
  p.single_group = choose_single_group(desc, t, type, vb, options, o);
  p.portable = choose_portable(desc, t, type, n, options, o);
  if (cuda || nvidia_opencl) {
    p.onesweep = choose_onesweep_policy(t, type, vb, n, options, o);
    // Wide pairs (key + value > 8 bytes) that the rule stages beside their keys want 2 blocks of that
    // layout per SM (RadixTuning::wide_pairs_beside_from; NVIDIA GPUs have about local_memory_bytes + 1 KiB of shared
    // memory per SM, 1 KiB of it reserved per block). Where that does not fit (CUDA GPUs with 99 or
    // 163 KiB per block), and under NVIDIA's OpenCL, they stay staged after their keys.
    const std::uint64_t beside_block_bytes =
        onesweep_pass_local_bytes(p) + onesweep_pass_static_local_bytes(p.onesweep) + 1024;
    if (!o.split_stage && p.onesweep.split_stage && key_size(type) + vb > 8 &&
        (nvidia_opencl || 2 * beside_block_bytes > desc.local_memory_bytes + 1024)) {
      RadixPolicyOverride after_keys = o;
      after_keys.split_stage = false;
      p.onesweep = choose_onesweep_policy(t, type, vb, n, options, after_keys);
    }
    if (nvidia_opencl) fit_onesweep_to_opencl(p, desc, t, options, o);
    // programmatic dependent launches of the passes: CUDA only (OpenCL launches never overlap)
    OnesweepPolicy& os = p.onesweep;
    const std::uint64_t launch_tiles = ceil_div(os.portion ? std::min(n, os.portion) : n, os.tile());
    os.overlap_passes = cuda && o.overlap_passes.value_or(true);
    os.early_trigger =
        os.overlap_passes && o.early_trigger.value_or(early_trigger_rule(launch_tiles, desc.compute_units, os.min_blocks));
    // radix_histogram_lanes: u16 lane counters, so a span stays below 2^19 keys and 2^15 per copy
    const std::uint64_t max_span = std::min<std::uint64_t>(1ull << 19, (1ull << 15) * p.onesweep.hist_copies);
    const std::uint64_t hist_blocks = std::uint64_t(desc.compute_units) * kHistBlocksPerSm;
    p.onesweep.hist_spans = plan_spans(n, std::uint64_t(p.onesweep.hist_group) * 32,
                                       std::max<std::uint64_t>(hist_blocks, ceil_div(n, max_span)));
    if (cuda) p.single_tile = choose_single_tile(desc, t, type, vb, n, options, o);
    if (cuda && p.single_tile.threads == 0) p.segments = choose_segments(desc, t, type, vb, n, options, p.onesweep, o);
  } else {
    p.portable_onesweep.use = n <= kOnesweepMaxN && o.portable_onesweep.value_or(t.portable_onesweep);
    p.portable_onesweep.spin_limit = o.spin_limit.value_or(p.portable_onesweep.spin_limit);
    p.portable_onesweep.fallback_only = o.fallback_only.value_or(false);
    // keys alone read the row's words per look-back step; pairs one (wider reads lost there)
    p.portable_onesweep.lookback_window =
        std::max<std::uint32_t>(1, o.lookback_window.value_or(vb == 0 ? t.lookback_window_keys : 1));
  }
  p.path = p.single_tile.threads != 0           ? RadixPath::single_tile
           : n > 1 && n <= p.single_group.max_n ? RadixPath::single_group
           : cuda || nvidia_opencl              ? RadixPath::onesweep
           : p.portable_onesweep.use            ? RadixPath::portable_onesweep
                                                : RadixPath::portable;
  return p;
}

const char* radix_program_file(RadixPath path) {
  switch (path) {
    case RadixPath::single_group:
      return "radix_single_group.cl";
    case RadixPath::portable:
      return "radix_passes.cl";
    case RadixPath::portable_onesweep:
      return "radix_onesweep_portable.cl";
    case RadixPath::single_tile:
      return "radix_single_tile.cl";
    case RadixPath::segments:
      return "radix_segments.cl";
    default:
      return "radix_onesweep.cl";
  }
}

std::vector<std::string> to_defines(const RadixPolicy& p, RadixPath path, bool packed_in, std::uint32_t packed_out) {
  auto d = key_defines_for(p.type, p.value_bytes);
  d.reserve(d.size() + 16);
  // one allocation per define: every sort builds these (the single tile's host path is microseconds)
  auto add = [&](std::string_view name, std::uint64_t v) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
    std::string& s = d.emplace_back();
    s.reserve(name.size() + 1 + std::size_t(end - digits));
    s.append(name).append(1, '=').append(digits, end);
  };
  if (path == RadixPath::single_group) {
    add("GROUP_SIZE", p.single_group.group);
    add("RADIX_BITS", p.single_group.bits);
  } else if (path == RadixPath::single_tile || path == RadixPath::segments) {  // shapes: kernels of the one program
    add("RADIX_BITS", kRadixBits);
    add("RADIX_MATCH_IMMEDIATE", p.onesweep.match_immediate);
    if (path == RadixPath::segments) {
      add("RADIX_SEGMENT_RANK_FIRST", p.segments.rank_first);
      add("RADIX_SEGMENT_MIN_BLOCKS", p.segments.min_blocks);
      add("RADIX_SEGMENT_INTERLEAVED", p.segments.interleaved);
    }
  } else if (path == RadixPath::portable || path == RadixPath::portable_onesweep) {
    add("RADIX_BITS", kRadixBits);
    add("GROUP_SIZE", p.portable.group);
    add("ITEMS", p.portable.items);
    add("RADIX_GROUP_DIGIT_SCAN", p.portable.group_digit_scan);
    add("RADIX_WARP_RANK", p.portable.warp_rank);
    if (path == RadixPath::portable_onesweep) {
      add("ONESWEEP_SPIN_LIMIT", p.portable_onesweep.spin_limit);
      add("ONESWEEP_FALLBACK_ONLY", p.portable_onesweep.fallback_only);
      add("ONESWEEP_LOOKBACK_WINDOW", p.portable_onesweep.lookback_window);
    }
  } else {  // radix_onesweep.cl: every switch explicit
    const OnesweepPolicy& os = p.onesweep;
    add("RADIX_BITS", kRadixBits);
    add("GROUP_SIZE", os.group);
    add("ITEMS", os.items);
    add("ONESWEEP_MIN_BLOCKS", os.min_blocks);
    add("ONESWEEP_SPLIT_STAGE", os.split_stage);
    add("ONESWEEP_RECOMPUTE_DIGIT", os.recompute_digit);
    add("ONESWEEP_LOOKBACK_SNAPSHOT", os.snapshot);
    add("RADIX_HIST_COPIES", os.hist_copies);
    add("RADIX_UNIFORM_COUNT", os.uniform_count);
    add("RADIX_MATCH_IMMEDIATE", os.match_immediate);
    add("ONESWEEP_PACKED_IN", packed_in);
    add("ONESWEEP_PACKED_OUT", packed_out);
    add("ONESWEEP_ALLOW_NEXT", os.early_trigger);
    // 0, or the words from one portion's offsets block to the next (radix_temp_layout's block_stride)
    add("ONESWEEP_PORTIONS", os.portion ? onesweep_block_bytes(p.passes) / 8 : 0);
    if (os.opencl) add("GS_MAX_REGISTERS", os.max_registers);  // the OpenCL backend's build option
  }
  return d;
}

std::uint64_t RadixTempLayout::total() const {
  std::uint64_t t = 0;
  for (std::uint64_t bytes : {keys, values, meta, counters, status, status2, counts, segments})
    if (bytes != 0) t += temp_request_bytes(bytes);
  return t;
}

RadixTempLayout radix_temp_layout(const RadixPolicy& p) {
  RadixTempLayout l;
  if (p.n <= 1 || p.path == RadixPath::single_tile || p.path == RadixPath::single_group) return l;
  l.keys = p.n * key_size(p.type);
  l.values = p.n * p.value_bytes;
  l.hist = std::uint64_t(p.passes) * kRadix * 8 + 8;  // + radix_histogram_lanes' -0/NaN flag word
  if (p.path == RadixPath::onesweep && !p.onesweep.opencl) {  // one meta buffer, carved into views
    const OnesweepPolicy& os = p.onesweep;
    const std::uint64_t portions = os.portions(p.n);
    const std::uint64_t hist_end = onesweep_block_bytes(p.passes);  // the histogram, 4096-aligned
    l.block_stride = os.portion ? hist_end : 0;  // one more block than portions: the last one's successor
    l.bases_offset = os.portion ? hist_end : 0;
    l.counters_offset = hist_end + (os.portion ? (portions + 1) * l.block_stride : 0);
    l.status_offset = l.counters_offset + ceil_div(std::uint64_t(p.passes) * portions * 4, 4096) * 4096;
    l.status_bytes = ceil_div(os.portion ? std::min(p.n, os.portion) : p.n, os.tile()) * kRadix * 4;
    l.meta = l.status_offset + l.status_bytes;
    l.status2 = p.passes > 1 || portions > 1 ? l.status_bytes : 0;  // requested when more than one launch runs
    l.segments = p.segments.threads ? (kSegmentWords + (p.segments.interleaved ? kSegmentEndWords : 0)) * 4 : 0;
  } else if (p.path == RadixPath::portable_onesweep || p.path == RadixPath::onesweep) {  // buffers of their own
    const std::uint64_t tile = p.path == RadixPath::onesweep ? p.onesweep.tile() : p.portable.tile();
    l.meta = l.hist;
    l.counters = std::uint64_t(p.passes) * 4;
    l.status = ceil_div(p.n, tile) * kRadix * 4;
    l.status2 = p.passes > 1 ? l.status : 0;
  } else {
    l.meta = l.hist;
    l.counts = std::uint64_t(kRadix) * p.portable.spans.groups * 8;
  }
  return l;
}

std::uint64_t single_tile_local_bytes(const SingleTilePolicy& s, std::size_t key_bytes, std::size_t value_bytes) {
  if (s.bitonic_log2)  // two buffers of N elements for the steps through shared memory (none below 256)
    return s.bitonic_log2 >= 8 ? (std::uint64_t(2) << s.bitonic_log2) * bitonic_element_bytes(key_bytes, value_bytes) : 0;
  // the staging area of keys then values: one element of padding per 32 (kernels/radix_single_tile.h)
  return (s.tile() + s.tile() / 32) * (key_bytes + value_bytes) + (s.threads / 32) * kRadix * 4;
}

std::uint64_t single_group_slots(std::uint64_t n) { return (n + (n >> 5) + 1 + 15) / 16 * 16; }

std::uint64_t single_group_local_bytes(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes,
                                       std::uint32_t group) {
  const std::uint64_t entries = std::uint64_t(16) * group;  // 4-bit digits: 16 counters per work-item
  return 2 * single_group_slots(n) * (key_bytes + value_bytes) + 4 * (entries + (entries >> 5) + group + 1);
}

std::uint64_t onesweep_hist_local_bytes(const RadixPolicy& p) {
  return std::uint64_t(p.passes) * p.onesweep.hist_copies * (kRadix / 2) * 4;
}

// The staging buffer(s), per-warp digit offsets, staged digits unless recomputed, the snapshot area
// (16: its alignment) (radix_onesweep.cl).
std::uint64_t onesweep_pass_local_bytes(const RadixPolicy& p) {
  const OnesweepPolicy& os = p.onesweep;
  const std::size_t ks = key_size(p.type);
  const std::uint64_t stage_item = os.split_stage ? ks + p.value_bytes : std::max<std::size_t>(ks, p.value_bytes);
  return os.tile() * stage_item + (os.group / 32) * kRadix * 4 + (os.recompute_digit ? 0 : os.tile()) +
         (os.snapshot ? 16 + std::uint64_t(os.snapshot) * kRadix * 4 : 0);
}

std::vector<std::vector<std::string>> radix_onesweep_program_defines(const DeviceDescription& desc, key_type type,
                                                                     std::size_t value_bytes, std::uint64_t n) {
  const RadixPolicy p = choose_radix_policy(desc, type, value_bytes, n, SortOptions{}, RadixPolicyOverride{});
  std::vector<std::vector<std::string>> all{to_defines(p, RadixPath::onesweep)};
  if (p.onesweep.packed_pairs)  // the passes that read or write packed pairs
    for (auto [in, out] : {std::pair{false, 1u}, {true, 1u}, {true, 0u}})
      all.push_back(to_defines(p, RadixPath::onesweep, in, out));
  if (p.segments.interleaved) all.push_back(to_defines(p, RadixPath::onesweep, true, 2));  // the segments' last pass
  return all;
}

std::vector<std::string> radix_single_tile_program_defines(const RadixTuning& t, key_type type,
                                                           std::size_t value_bytes) {
  RadixPolicy p;
  p.tuning = &t;
  p.type = type, p.value_bytes = value_bytes;
  p.onesweep = choose_onesweep_policy(t, type, value_bytes, 4096, SortOptions{});
  return to_defines(p, RadixPath::single_tile);
}

std::vector<std::string> radix_segments_program_defines(const RadixTuning& t, key_type type, std::size_t value_bytes,
                                                        std::optional<bool> rank_first,
                                                        std::optional<bool> interleaved) {
  RadixPolicy p;
  p.tuning = &t;
  p.type = type, p.value_bytes = value_bytes;
  p.onesweep = choose_onesweep_policy(t, type, value_bytes, 4096, SortOptions{});
  const auto [row_rank_first, min_blocks] = segments_row_passes(t, type, value_bytes);
  p.segments.rank_first = rank_first.value_or(row_rank_first);
  p.segments.min_blocks = min_blocks;
  const SegmentsFromRow* row = segments_row(t, type, value_bytes);
  p.segments.interleaved = key_size(type) == 4 && value_bytes == 4 && !is_float(type) &&
                          interleaved.value_or(row && row->interleaved);
  return to_defines(p, RadixPath::segments);
}

namespace {

const char* path_name(RadixPath path) {
  switch (path) {
    case RadixPath::single_tile:
      return "single tile";
    case RadixPath::single_group:
      return "single work-group";
    case RadixPath::onesweep:
      return "onesweep";
    case RadixPath::portable_onesweep:
      return "portable onesweep";
    case RadixPath::segments:
      return "segments";
    default:
      return "portable passes";
  }
}

std::string on_off(bool b) { return b ? "on" : "off"; }

}  // namespace

std::vector<std::string> describe(const RadixPolicy& p) {
  std::vector<std::string> lines;
  if (p.tuning)
    lines.push_back(std::string("tuning row ") + p.tuning->name + " (measured on " + p.tuning->measured_on +
                    "): " + p.tuning->note);
  else
    lines.emplace_back("tuning row: none (a policy built by hand)");
  lines.push_back(std::string("path: ") + path_name(p.path) + " (" + radix_program_file(p.path) + "), " +
                  std::to_string(p.passes) + " digit passes");
  const auto s = [](std::uint64_t v) { return std::to_string(v); };
  switch (p.path) {
    case RadixPath::single_tile:
      if (p.single_tile.bitonic_log2)
        lines.push_back("bitonic network of 2^" + s(p.single_tile.bitonic_log2) + " elements, " +
                        s(p.single_tile.threads) + " threads x 4");
      else
        lines.push_back("tile: " + s(p.single_tile.threads) + " threads x " + s(p.single_tile.items) + " items");
      break;
    case RadixPath::single_group:
      lines.push_back("group: " + s(p.single_group.group) + " work-items, " + s(p.single_group.bits) +
                      "-bit digits, up to " + s(p.single_group.max_n) + " keys");
      break;
    case RadixPath::onesweep: {
      const OnesweepPolicy& os = p.onesweep;
      lines.push_back("passes: " + s(os.group) + " threads x " + s(os.items) + " items, " + s(os.min_blocks) +
                      " blocks per SM" + (os.opencl ? ", NVIDIA OpenCL (" + s(os.max_registers) + " registers)" : ""));
      lines.push_back("values beside keys " + on_off(os.split_stage) + ", recompute digit " + on_off(os.recompute_digit) +
                      ", packed pairs " + on_off(os.packed_pairs) +
                      ", uniform count " + on_off(os.uniform_count) + ", match immediate " + s(os.match_immediate) +
                      ", snapshot " + s(os.snapshot));
      lines.push_back("histogram: " + s(os.hist_spans.groups) + " groups, " + s(os.hist_copies) +
                      " counter copies; every pass runs up to n = " + s(os.no_skip_max_n));
      lines.push_back("launches: " + (os.portion ? s(os.portions(p.n)) + " portions of " + s(os.portion) + " keys"
                                                 : std::string("one per pass")) +
                      ", overlapped " + on_off(os.overlap_passes) + ", early trigger " + on_off(os.early_trigger));
      if (p.segments.threads)
        lines.push_back("segments (" + std::string(radix_program_file(RadixPath::segments)) + "): " +
                        s(p.segments.threads) + " threads x " + s(p.segments.items) + " items, " +
                        (p.segments.rank_first ? "rank first" : "count first") + ", " + s(p.segments.min_blocks) +
                        " blocks per SM, interleaved " + on_off(p.segments.interleaved) +
                        ", unless a top digit holds more than " + s(p.segments.skew_percent) + "% of its share");
      break;
    }
    case RadixPath::portable_onesweep:
    case RadixPath::portable:
      lines.push_back("tiles: " + s(p.portable.group) + " work-items x " + s(p.portable.items) + " items, " +
                      s(p.portable.spans.groups) + " groups, group digit scan " + on_off(p.portable.group_digit_scan) +
                      ", warp rank " + on_off(p.portable.warp_rank));
      if (p.path == RadixPath::portable_onesweep)
        lines.push_back("look-back: " + s(p.portable_onesweep.lookback_window) + " words per step, spin limit " +
                        s(p.portable_onesweep.spin_limit));
      break;
    default:
      break;
  }
  lines.push_back("temporaries: " + s(radix_temp_layout(p).total()) + " bytes");
  return lines;
}

}  // namespace gpusort::algo
