// The binned bin's listed onesweep (segmented_listed.hpp). Launch sequence, after segmented_bin_long
// has listed the segments (all on the job's queue, nothing read back):
//  1. one fill zeroes the histograms, the passes' tile counters and the first status words;
//  2. segmented_listed_starts (one block): each listed segment's first tile and first histogram chunk;
//  3. segmented_listed_histogram over the most chunks the list can need: every listed segment's
//     digits of every pass (one read of their keys);
//  4. per digit one segmented_listed_onesweep launch over the most tiles the list can need, ping-
//     ponging between the caller's buffers and the binned bin's temporaries so that the last pass
//     writes the output. An odd number of passes (8-bit keys) in place reads a copy of the input.
#include "algorithms/segmented/segmented_listed.hpp"

#include <algorithm>

#include "algorithms/segmented/segmented_onesweep.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

// u64 words of one listed segment's histogram block (kernels/segmented_onesweep.cl, SEG_HIST_WORDS)
std::uint64_t hist_words(std::uint32_t passes) { return std::uint64_t(passes) * kRadix + 1; }

std::uint64_t aligned(std::uint64_t bytes) { return ceil_div(bytes, kTempAlign) * kTempAlign; }

struct Layout {
  std::uint64_t tile_start = 0, chunk_start = 0, hist = 0, counters = 0, status = 0, status_bytes = 0, bytes = 0;
};
Layout layout_of(const SegmentedListedPolicy& p) {
  Layout l;
  const std::uint64_t starts = (p.max_entries + 1) * sizeof(std::uint32_t);
  l.chunk_start = aligned(starts);
  l.hist = l.chunk_start + aligned(starts);
  l.counters = l.hist + aligned(p.max_entries * hist_words(p.radix.passes) * 8);
  l.status = l.counters + aligned(std::uint64_t(p.radix.passes) * 4);
  l.status_bytes = p.max_tiles * kRadix * 4;
  l.bytes = l.status + l.status_bytes;
  return l;
}

}  // namespace

SegmentedListedPolicy choose_segmented_listed_policy(const DeviceDescription& desc, key_type type,
                                                     std::size_t value_bytes, std::uint64_t n, std::uint64_t count,
                                                     const SortOptions& options) {
  SegmentedListedPolicy p;
  const SegmentedPolicyOverride& o = segmented_policy_override();
  const std::uint64_t min_length =
      o.binned_onesweep_min ? *o.binned_onesweep_min : segmented_tuning_for(desc).binned_onesweep_min_length;
  if (desc.backend != "cuda" || !options.comparator.empty() || min_length == 0 || n == 0 || n > kOnesweepMaxN)
    return p;
  p.min_length = min_length;
  RadixPolicyOverride r;
  r.packed_pairs = false;  // a segment's pairs start anywhere, not 8-byte aligned
  r.segments = false;
  r.single_tile_max = 0;
  r.single_group_max = 0;
  p.radix = choose_radix_policy(desc, type, value_bytes, n, options, r);
  p.radix.path = RadixPath::onesweep;
  const OnesweepPolicy& os = p.radix.onesweep;
  p.max_entries = std::max<std::uint64_t>(1, std::min(count, n / (min_length + 1)));
  p.max_tiles = n / os.tile() + p.max_entries;  // each segment's tiles, its last one partly filled
  // chunks within the u16 lane counters' span (radix_lane_histogram.h), as the uniform rows' histogram
  p.span = std::min<std::uint64_t>(std::uint64_t(1) << 16, (std::uint64_t(1) << 15) * os.hist_copies);
  p.max_chunks = n / p.span + p.max_entries;
  return p;
}

std::uint64_t segmented_listed_temp_bytes(const SegmentedListedPolicy& p) {
  if (p.min_length == 0) return 0;
  const Layout l = layout_of(p);
  std::uint64_t t = temp_request_bytes(p.max_entries * 8) + temp_request_bytes(l.bytes);
  if (p.radix.passes > 1) t += temp_request_bytes(l.status_bytes);
  return t;
}

SegmentedListedTemps take_segmented_listed_temps(SortJob& sort, const SegmentedListedPolicy& p) {
  SegmentedListedTemps t;
  if (p.min_length == 0) return t;
  const Layout l = layout_of(p);
  t.list = sort.temp(p.max_entries * 8);
  t.meta = sort.temp(l.bytes);
  if (p.radix.passes > 1) t.status2 = sort.temp(l.status_bytes);
  return t;
}

void segmented_listed_sort(SegmentedJob& job, const SegmentedListedPolicy& p, SegmentedListedTemps& temps,
                           rt::Buffer& work, rt::Buffer& keys_temp, rt::Buffer& values_temp, bool positions) {
  SortJob& s = job.sort;
  const SegmentShape& seg = job.segments;
  rt::Device& dev = s.device;
  if (p.min_length == 0 || !temps.meta) throw Error(errc::unsupported, "segmented listed: not this device or shape");
  const OnesweepPolicy& os = p.radix.onesweep;
  const Layout l = layout_of(p);
  const std::uint32_t passes = p.radix.passes;
  bool immediate = os.match_immediate != 0;
  rt::Program& program = segmented_onesweep_program(dev, p.radix, false, 0, immediate);
  rt::BufferPtr tile_start = dev.sub_buffer(*temps.meta, 0, l.chunk_start);
  rt::BufferPtr chunk_start = dev.sub_buffer(*temps.meta, l.chunk_start, l.hist - l.chunk_start);
  rt::BufferPtr hist = dev.sub_buffer(*temps.meta, l.hist, l.counters - l.hist);
  rt::BufferPtr counters = dev.sub_buffer(*temps.meta, l.counters, l.status - l.counters);
  rt::BufferPtr status = dev.sub_buffer(*temps.meta, l.status, l.status_bytes);
  const std::uint64_t first = seg.offsets_byte_offset / seg.offset_bytes;
  const std::uint32_t wide = seg.offset_bytes == 8 ? 1 : 0;

  // Where each pass reads and writes: the last pass writes the caller's buffers (0), the one before
  // it the temporaries (1), and so on back; the first reads the input.
  rt::Buffer* keys_side[2] = {&s.keys, &keys_temp};
  rt::Buffer* values_side[2] = {&s.values_or_keys(), s.values ? &values_temp : &keys_temp};
  const auto to = [&](std::uint32_t i) { return (passes - 1 - i) & 1u; };
  rt::Buffer* keys_from = s.keys_in ? s.keys_in : &s.keys;
  rt::Buffer* values_from = s.values_in ? s.values_in : &s.values_or_keys();
  if (keys_from == keys_side[to(0)]) {  // in place, an odd number of passes: read a copy
    dev.copy(*keys_from, 0, keys_temp, 0, s.n * key_size(s.type));
    keys_from = &keys_temp;
  }
  if (s.values && !positions && values_from == values_side[to(0)]) {
    dev.copy(*values_from, 0, values_temp, 0, s.n * s.value_bytes);
    values_from = &values_temp;
  }

  dev.fill_bytes(*temps.meta, 0, l.hist, l.bytes - l.hist);
  dev.launch(program.kernel("segmented_listed_starts"), {1, os.group, 0},
             {*seg.offsets, first, wide, *temps.list, work, p.span, *tile_start, *chunk_start});
  dev.launch(program.kernel("segmented_listed_histogram"),
             {p.max_chunks, os.hist_group, static_cast<std::size_t>(onesweep_hist_local_bytes(p.radix))},
             {*keys_from, *seg.offsets, first, wide, *temps.list, work, *chunk_start, p.span, s.flip_arg(), *hist});
  const std::size_t local_bytes = onesweep_pass_local_bytes(p.radix);
  rt::Buffer* st[2] = {status.get(), temps.status2 ? temps.status2.get() : status.get()};
  for (std::uint32_t i = 0; i < passes; ++i) {
    rt::Buffer& k_in = i == 0 ? *keys_from : *keys_side[to(i - 1)];
    rt::Buffer& v_in = i == 0 ? *values_from : *values_side[to(i - 1)];
    const std::uint32_t make_positions = positions && i == 0 ? 1 : 0;
    dev.launch(program.kernel("segmented_listed_onesweep"), {p.max_tiles, os.group, local_bytes, os.overlap_passes},
               {k_in, v_in, *keys_side[to(i)], *values_side[to(i)], *seg.offsets, first, wide, *temps.list, work,
                *tile_start, s.flip_arg(), i * kRadixBits, *hist, *st[i & 1], *st[(i + 1) & 1], *counters, i,
                make_positions});
  }
}

std::vector<std::string> segmented_listed_plan_steps(const SegmentedListedPolicy& p) {
  std::vector<std::string> steps;
  if (p.min_length == 0) return steps;
  const OnesweepPolicy& os = p.radix.onesweep;
  steps.push_back("segments of more than " + std::to_string(p.min_length) +
                  " keys listed apart and sorted by several blocks each (segmented_onesweep.cl listed kernels): "
                  "segmented_listed_starts (one block), segmented_listed_histogram over up to " +
                  std::to_string(p.max_chunks) + " chunks of " + std::to_string(p.span) + " keys, then " +
                  std::to_string(p.radix.passes) + " passes of segmented_listed_onesweep over up to " +
                  std::to_string(p.max_tiles) + " tiles of " + std::to_string(os.group) + " x " +
                  std::to_string(os.items) + " keys, one look-back chain per segment (grids sized from n: "
                  "nothing read back)");
  return steps;
}

}  // namespace gpusort::algo
