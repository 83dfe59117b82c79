// The long-row bin (segmented_onesweep.hpp): launch sequence, all on the job's queue, nothing read back:
//  1. one fill zeroes the rows' histograms, the passes' tile counters and the first status words;
//  2. segmented_histogram counts every row's digits for every pass (one read of the keys);
//  3. per digit one segmented_onesweep launch over every row's tiles, ping-ponging between the
//     caller's buffers and one temporary copy so that the last pass writes the output. Out of place,
//     the first pass reads the input where it lies. An odd number of passes (8-bit keys) in place
//     sorts from a copy of the input in the temporaries.
// Every pass runs: skipping a pass whose digit is constant would need the histogram on the host (the
// 1-D driver reads it back above OnesweepPolicy::no_skip_max_n), which a CUDA graph cannot capture.
#include "algorithms/segmented/segmented_onesweep.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "gpusort/errors.hpp"

namespace gpusort::algo {
namespace {

// H100 (2026-12-06, f32 keys with u32 values, out of place): 64 x 128256 in 0.375 ms and 4096 x 32768
// in 5.46 ms, as fast as the 1-D radix sort of as many keys in one array (0.385 and 5.36 ms).
constexpr SegmentedOnesweepTuning kRows[] = {
    {"sm90-rows", "cuda:sm_90", "cuda:sm_90:H100",
     "the 1-D onesweep's tile shapes fitted to the rows; rows above one 4096-key tile", 0, 0, true, 4097},
    {"cuda-rows", "cuda", "", "generic CUDA: the 1-D onesweep's tile shapes fitted to the rows", 0, 0, true, 4097},
    {"none", "", "", "no CUDA: the bin does not apply", 0, 0, false, ~0ull},
};

// One row's block of the histogram: every pass's digit counts and the -0/NaN flag word (u64 each;
// kernels/segmented_onesweep.cl, SEG_HIST_WORDS).
std::uint64_t row_hist_words(std::uint32_t passes) { return std::uint64_t(passes) * kRadix + 1; }

constexpr std::uint64_t kHistBlocksPerSm = 8;  // the 1-D histogram's occupancy (radix_policy.cpp)

struct Layout {
  std::uint64_t keys = 0, values = 0;                // the ping-pong copies
  std::uint64_t hist = 0, counters_offset = 0, status_offset = 0, status_bytes = 0, meta = 0;
  std::uint64_t status2 = 0;                         // the second status buffer (more than one pass)
};
Layout layout_of(const SegmentedOnesweepPolicy& p) {
  Layout l;
  const std::uint64_t n = p.rows * p.row_length;
  l.keys = n * key_size(p.radix.type);
  l.values = n * p.radix.value_bytes;
  l.hist = p.rows * row_hist_words(p.radix.passes) * 8;
  l.counters_offset = ceil_div(l.hist, kTempAlign) * kTempAlign;  // views start 4096-aligned
  l.status_offset = l.counters_offset + ceil_div(std::uint64_t(p.radix.passes) * 4, kTempAlign) * kTempAlign;
  l.status_bytes = p.tiles() * kRadix * 4;
  l.meta = l.status_offset + l.status_bytes;
  l.status2 = p.radix.passes > 1 ? l.status_bytes : 0;
  return l;
}

}  // namespace

std::span<const SegmentedOnesweepTuning> segmented_onesweep_tuning_rows() { return kRows; }

const SegmentedOnesweepTuning& segmented_onesweep_tuning_for(const DeviceDescription& desc) {
  return tuning_row_for(std::span<const SegmentedOnesweepTuning>(kRows), desc);
}

SegmentedOnesweepPolicy choose_segmented_onesweep_policy(const DeviceDescription& desc, key_type type,
                                                         std::size_t value_bytes, std::uint64_t rows,
                                                         std::uint64_t row_length, const SortOptions& options,
                                                         bool unpacked) {
  SegmentedOnesweepPolicy p;
  p.tuning = &segmented_onesweep_tuning_for(desc);
  p.rows = rows;
  p.row_length = row_length;
  // the 1-D chooser for an array of all the keys (capped where portions would start), without
  // segments or the one-block path
  RadixPolicyOverride o;
  if (unpacked || row_length % 2 != 0) o.packed_pairs = false;  // a row's packed pairs start 8-byte aligned: even lengths
  o.segments = false;
  o.single_tile_max = 0;
  o.single_group_max = 0;
  if (const std::uint32_t items = value_bytes ? p.tuning->items_pairs : p.tuning->items_keys; items != 0) o.items = items;
  const std::uint64_t n = std::min(rows * row_length, kOnesweepMaxN);
  p.radix = choose_radix_policy(desc, type, value_bytes, n, options, o);
  if (p.tuning->fit_items_to_rows && !o.items && options.items_per_thread == 0) {
    // the chosen items' number of tiles per row, each as full as it can be: the fewest keys per
    // thread that keep that number (a row's last tile is otherwise up to a tile short)
    const std::uint64_t group = p.radix.onesweep.group, tiles = ceil_div(row_length, p.radix.onesweep.tile());
    const auto fitted = static_cast<std::uint32_t>(ceil_div(row_length, group * tiles));
    if (fitted < p.radix.onesweep.items) {
      o.items = fitted;
      p.radix = choose_radix_policy(desc, type, value_bytes, n, options, o);
    }
  }
  p.radix.path = RadixPath::onesweep;
  const OnesweepPolicy& os = p.radix.onesweep;
  p.tiles_per_row = ceil_div(row_length, os.tile());
  // histogram chunks: about kHistBlocksPerSm blocks per SM in all, each at least a few thousand keys
  // and within the u16 lane counters' span (radix_lane_histogram.h)
  const std::uint64_t max_span = std::min<std::uint64_t>(1ull << 19, (1ull << 15) * os.hist_copies);
  const std::uint64_t want = ceil_div(std::uint64_t(std::max(1u, desc.compute_units)) * kHistBlocksPerSm, rows);
  p.hist_chunks = std::max(ceil_div(row_length, max_span), std::min(want, ceil_div(row_length, 4096)));
  p.hist_chunks = std::max<std::uint64_t>(1, p.hist_chunks);
  p.hist_span = ceil_div(row_length, p.hist_chunks);
  p.hist_chunks = ceil_div(row_length, p.hist_span);
  return p;
}

bool segmented_onesweep_takes_shape(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                    std::uint64_t rows, std::uint64_t row_length, const SortOptions& options,
                                    bool positions) {
  if (desc.backend != "cuda" || !options.comparator.empty() || rows == 0) return false;
  if (positions && value_bytes != 4 && value_bytes != 8) return false;
  const SegmentedOnesweepTuning& t = segmented_onesweep_tuning_for(desc);
  if (row_length < t.min_row_length || row_length > kOnesweepMaxN) return false;
  const SegmentedOnesweepPolicy p = choose_segmented_onesweep_policy(desc, type, value_bytes, rows, row_length, options);
  return p.tiles() < (1ull << 32) && p.rows < (1ull << 32) / p.tiles_per_row;
}

bool segmented_onesweep_takes(const SegmentedJob& job) {
  const SortJob& s = job.sort;
  if (!job.segments.uniform() || job.segments.count == 0) return false;
  const std::uint64_t length = job.segments.row_length ? job.segments.row_length : s.n / job.segments.count;
  if (length * job.segments.count != s.n) return false;
  return segmented_onesweep_takes_shape(s.device.description(), s.type, s.value_bytes, job.segments.count, length,
                                        s.options, s.values_are_positions);
}

std::vector<std::string> segmented_onesweep_defines(const SegmentedOnesweepPolicy& p, bool packed_in,
                                                    std::uint32_t packed_out) {
  return to_defines(p.radix, RadixPath::onesweep, packed_in, packed_out);
}

rt::Program& segmented_onesweep_program(rt::Device& dev, RadixPolicy radix, bool packed_in, std::uint32_t packed_out,
                                       bool& immediate) {
  if (immediate) {
    try {
      return dev.program("segmented_onesweep.cl", to_defines(radix, RadixPath::onesweep, packed_in, packed_out));
    } catch (const Error& e) {
      // ptxas failed on some forms of the warp match's immediates (radix_sort.cpp keeps the same
      // fallback): the masks from constant memory instead
      if (e.code() != errc::build_error && e.code() != errc::device_error) throw;
      immediate = false;
    }
  }
  radix.onesweep.match_immediate = 0;
  return dev.program("segmented_onesweep.cl", to_defines(radix, RadixPath::onesweep, packed_in, packed_out));
}

std::vector<std::vector<std::string>> segmented_onesweep_program_defines(const DeviceDescription& desc, key_type type,
                                                                         std::size_t value_bytes, std::uint64_t rows,
                                                                         std::uint64_t row_length) {
  const SegmentedOnesweepPolicy p = choose_segmented_onesweep_policy(desc, type, value_bytes, rows, row_length, {});
  std::vector<std::vector<std::string>> all{segmented_onesweep_defines(p)};
  if (p.radix.onesweep.packed_pairs)  // the first pass packs, the middle ones keep them packed, the last unpacks
    for (auto [in, out] : {std::pair{false, 1u}, {true, 1u}, {true, 0u}}) all.push_back(segmented_onesweep_defines(p, in, out));
  return all;
}

std::uint64_t segmented_onesweep_temp_bytes(const SegmentedOnesweepPolicy& p) {
  const Layout l = layout_of(p);
  std::uint64_t t = temp_request_bytes(l.keys) + temp_request_bytes(l.meta);
  if (l.values) t += temp_request_bytes(l.values);
  if (l.status2) t += temp_request_bytes(l.status2);
  return t;
}

void segmented_onesweep_sort(SegmentedJob& job) {
  SortJob& s = job.sort;
  if (!segmented_onesweep_takes(job))
    throw Error(errc::unsupported, "segmented onesweep: this shape is not one of its (CUDA, uniform rows above a tile)");
  rt::Device& dev = s.device;
  const std::uint64_t rows = job.segments.count, length = s.n / rows;
  // packed pairs store 8-byte words: not where a buffer is a view only 4-byte aligned
  bool unpacked = false;
  for (const rt::Buffer* b : {&s.keys, s.values, s.keys_in, s.values_in})
    if (b && b->address_alignment() < 8) unpacked = true;
  const SegmentedOnesweepPolicy p =
      choose_segmented_onesweep_policy(dev.description(), s.type, s.value_bytes, rows, length, s.options, unpacked);
  const OnesweepPolicy& os = p.radix.onesweep;
  const Layout l = layout_of(p);
  const std::uint32_t passes = p.radix.passes;
  const bool positions = s.values_are_positions;
  const bool packed = os.packed_pairs && passes > 1;  // the first pass packs, the last unpacks

  // Temporaries first, and the programs: a failure leaves the input untouched.
  rt::BufferPtr tmp_keys = s.temp(l.keys);
  rt::BufferPtr tmp_values = s.values ? s.temp(l.values) : nullptr;
  rt::BufferPtr meta = s.temp(l.meta);
  rt::BufferPtr status2 = l.status2 ? s.temp(l.status2) : nullptr;
  rt::BufferPtr hist = dev.sub_buffer(*meta, 0, l.hist);
  rt::BufferPtr counters = dev.sub_buffer(*meta, l.counters_offset, l.status_offset - l.counters_offset);
  rt::BufferPtr status = dev.sub_buffer(*meta, l.status_offset, l.status_bytes);
  bool immediate = os.match_immediate != 0;
  std::vector<rt::Program*> pass_programs;
  for (std::uint32_t i = 0; i < passes; ++i)
    pass_programs.push_back(
        &segmented_onesweep_program(dev, p.radix, packed && i > 0, packed && i + 1 < passes ? 1 : 0, immediate));

  // Where each pass reads and writes: the last pass writes the caller's buffers (A), the one before
  // it the temporaries (B), and so on back; the first reads the input.
  rt::Buffer* keys_side[2] = {&s.keys, tmp_keys.get()};
  rt::Buffer* values_side[2] = {&s.values_or_keys(), tmp_values ? tmp_values.get() : tmp_keys.get()};
  const auto to = [&](std::uint32_t i) { return (passes - 1 - i) & 1u; };  // 0: the caller's, 1: temporaries
  rt::Buffer* keys_from = s.keys_in ? s.keys_in : &s.keys;
  rt::Buffer* values_from = s.values_in ? s.values_in : &s.values_or_keys();
  // an odd number of passes writes the caller's buffers first: whatever of the input lies there is
  // copied to the temporaries and read from there
  if (keys_from == keys_side[to(0)]) {
    dev.copy(*keys_from, 0, *tmp_keys, 0, l.keys);
    keys_from = tmp_keys.get();
  }
  if (s.values && !positions && values_from == values_side[to(0)]) {
    dev.copy(*values_from, 0, *tmp_values, 0, l.values);
    values_from = tmp_values.get();
  }

  dev.fill_bytes(*meta, 0, 0, l.meta);
  const std::uint64_t hist_local = onesweep_hist_local_bytes(p.radix);
  dev.launch(pass_programs[0]->kernel("segmented_histogram"), {rows * p.hist_chunks, os.hist_group, hist_local},
             {*keys_from, length, static_cast<std::uint32_t>(p.hist_chunks), p.hist_span, s.flip_arg(), *hist});
  const std::size_t local_bytes = onesweep_pass_local_bytes(p.radix);
  rt::Buffer* st[2] = {status.get(), status2 ? status2.get() : status.get()};
  for (std::uint32_t i = 0; i < passes; ++i) {
    rt::Buffer& k_in = i == 0 ? *keys_from : *keys_side[to(i - 1)];
    rt::Buffer& v_in = i == 0 ? *values_from : *values_side[to(i - 1)];
    const std::uint32_t make_positions = positions && i == 0 ? 1 : 0;
    dev.launch(pass_programs[i]->kernel("segmented_onesweep"), {p.tiles(), os.group, local_bytes, os.overlap_passes},
               {k_in, v_in, *keys_side[to(i)], *values_side[to(i)], length,
                static_cast<std::uint32_t>(p.tiles_per_row), s.flip_arg(), i * kRadixBits, *hist, *st[i & 1],
                *st[(i + 1) & 1], *counters, i, make_positions});
  }
  s.values_are_positions = false;  // made by the first pass
}

std::vector<std::string> segmented_onesweep_plan_steps(const DeviceDescription& desc, key_type type,
                                                       std::size_t value_bytes, std::uint64_t rows,
                                                       std::uint64_t row_length, const SortOptions& options) {
  const SegmentedOnesweepPolicy p = choose_segmented_onesweep_policy(desc, type, value_bytes, rows, row_length, options);
  const OnesweepPolicy& os = p.radix.onesweep;
  const SegmentedOnesweepTuning& t = *p.tuning;
  std::vector<std::string> steps;
  steps.push_back(std::string("tuning row ") + t.name + (t.measured_on[0] ? std::string(" (measured on ") + t.measured_on + ")" : std::string()) +
                  ": " + t.note);
  steps.push_back("segmented onesweep (kernels/segmented_onesweep.cl): " + std::to_string(rows) + " rows x " +
                  std::to_string(row_length) + " keys, " + std::to_string(p.tiles_per_row) + " tiles of " +
                  std::to_string(os.group) + " x " + std::to_string(os.items) + " keys per row");
  steps.push_back("segmented_histogram: every row's digits of every pass, " + std::to_string(p.hist_chunks) +
                  " block(s) of up to " + std::to_string(p.hist_span) + " keys per row");
  steps.push_back(std::to_string(p.radix.passes) + " passes (every pass runs: nothing is read back), each one launch of " +
                  std::to_string(p.tiles()) + " tiles with one look-back chain per row; min_blocks " +
                  std::to_string(os.min_blocks) + ", values " + (os.split_stage ? "staged beside the keys" : "staged after the keys") +
                  (os.packed_pairs ? ", pairs packed between the first and last pass (where the buffers are 8-byte aligned)" : "") +
                  ", overlapped launches " + (os.overlap_passes ? "on" : "off"));
  return steps;
}

}  // namespace gpusort::algo
