// LSD radix sort driver (issue 5): the launch sequence. Which path runs, its tile shapes, kernel
// switches and temporaries come from radix_policy.{hpp,cpp}. Digits come from ordered_key(k, flip)
// (kernels/keys.h), so signed, float and descending orders need no special passes, and the data
// moves as its original bits: NaN payloads and the sign of zero survive. Stable by construction
// (every pass is a stable counting scatter).
//
// 0. Small n: one launch (CUDA: up to 4096 keys, or pairs with keys of up to 32 bits, the
//    bitonic network radix_small_bitonic; else radix_single_tile; elsewhere radix_single_group.cpp).
// 1. radix_histogram(_lanes): every pass's digit histogram at once (one read of the keys).
// 2. Read the histogram back; a pass whose digit is the same for all keys is skipped (narrow or
//    low-entropy data, small integers in wide types: fewer passes). The onesweep path runs every
//    pass up to OnesweepPolicy::no_skip_max_n instead (the read-back costs more there), and above it
//    launches the first pass before it reads the histogram (on a queue of its own, once the
//    histogram is done), so the device works through the read-back; the first pass always runs.
// 3. Per remaining pass, ping-pong between the caller's buffers and one temporary copy:
//    - NVIDIA GPUs (CUDA: any n, in portions from 2^30; NVIDIA's OpenCL: n < 2^30): radix_onesweep.cl,
//      one kernel per pass (rank, decoupled look-back, scatter);
//    - other GPUs (n < 2^30): radix_onesweep_portable.cl, one kernel per pass (the tile ranked with
//      warp votes on NVIDIA GPUs, in local-memory rounds elsewhere; decoupled look-back with a
//      fallback instead of a forward-progress assumption; scatter);
//    - elsewhere (CPUs; GPUs from 2^30 keys): radix_passes.cl, count + scan + stable scatter.
// 4. When the last pass wrote the temporary, copy the result back.
// CUDA segments (RadixPolicy::segments, large inputs of 32- and 64-bit integer keys): after 1, the
// histogram is read; where the top two digits are even, the passes sort by those two only and
// radix_segments.cl sorts each segment of keys sharing their top 16 bits in shared memory
// (segments_sort); elsewhere that read plans the passes of 2 and 3.
// Out of place (SortJob::keys_in): the histogram and the first pass read the input where it lies,
// and the passes ping-pong so that the last one writes the output: no copy of the input (values
// sorted in place beside keys apart: the same for an even number of passes; an odd one copies the
// keys in). Where the passes run turns out different from the number planned at the first pass
// (onesweep's read-back after it), the result is copied back from the temporary as in place. The
// CUDA one-launch path reads the input where it lies too (and makes an argsort's positions itself,
// SortJob::values_are_positions); the single work group copies the input into the output first.
// See docs/algorithms/radix.md.
#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "algorithms/drivers.hpp"
#include "algorithms/radix_policy.hpp"
#include "runtime/phase_timer.hpp"

namespace gpusort::algo {
namespace {

using rt::PhaseTimer;  // options.verbose: device time of each phase, to stderr

// The sort and its size query choose alike; a bad work-group size is an error on every path.
template <class Job>  // SortJob or TempQuery
RadixPolicy policy_for(const Job& job) {
  checked_group_size(job.device, job.options.work_group_size, PortablePolicy{}.group);
  return choose_radix_policy(job.device.description(), job.type, job.value_bytes, job.n, job.options);
}

// Packed (and interleaved) pairs store 8-byte words in the caller's buffers: where one of them is a
// view only 4-byte aligned (a slice of the caller's array), the pairs stay unpacked. The size query
// cannot see the buffers; the unpacked policy's temporaries are no larger (larger tiles, no copies
// of the segments' end pairs).
RadixPolicy policy_for_buffers(const SortJob& job) {
  RadixPolicy p = policy_for(job);
  if (!p.onesweep.packed_pairs) return p;
  for (const rt::Buffer* b : {&job.keys, job.values, job.keys_in, job.values_in})
    if (b && b->address_alignment() < 8) {
      RadixPolicyOverride o = radix_policy_override();
      o.packed_pairs = false;
      return choose_radix_policy(job.device.description(), job.type, job.value_bytes, job.n, job.options, o);
    }
  return p;
}

// Programs (the onesweep passes', the single tile's) whose warp match tests digit bits against
// immediates (RADIX_MATCH_IMMEDIATE) and that ptxas failed to build on a device (its predicate
// allocation failed on some forms of that match), as "device name|defines": later sorts go straight
// to the form with the masks in constant memory. Until a build fails, a sort only reads the flag (no
// key string on the small sorts' host path).
std::mutex g_immediate_failed_mutex;
std::set<std::string> g_immediate_failed;
std::atomic<bool> g_any_immediate_failed{false};

std::string immediate_failure_key(const SortJob& job, const std::vector<std::string>& defines) {
  std::string key = job.device.description().name + "|";
  for (const auto& d : defines) key.append(d).append(1, ' ');
  return key;
}

rt::Program& program_for(const SortJob& job, const RadixPolicy& p, RadixPath path, bool packed_in = false,
                         std::uint32_t packed_out = 0) {
  const auto defines = to_defines(p, path, packed_in, packed_out);
  if ((path != RadixPath::onesweep && path != RadixPath::single_tile && path != RadixPath::segments) ||
      !p.onesweep.match_immediate)
    return job.device.program(radix_program_file(path), defines);
  bool failed_before = false;
  if (g_any_immediate_failed.load(std::memory_order_acquire)) {
    const std::string key = immediate_failure_key(job, defines);
    std::lock_guard lock(g_immediate_failed_mutex);
    failed_before = g_immediate_failed.count(key) != 0;
  }
  if (!failed_before) {
    try {
      return job.device.program(radix_program_file(path), defines);
    } catch (const Error& e) {
      // NVRTC's ptxas (build_error) or the driver's, for PTX (device_error); anything else propagates
      if (e.code() != errc::build_error && e.code() != errc::device_error) throw;
      const std::string key = immediate_failure_key(job, defines);
      std::lock_guard lock(g_immediate_failed_mutex);
      g_immediate_failed.insert(key);
      g_any_immediate_failed.store(true, std::memory_order_release);
    }
  }
  RadixPolicy masks = p;
  masks.onesweep.match_immediate = 0;
  return job.device.program(radix_program_file(path), to_defines(masks, path, packed_in, packed_out));
}

// Ping-pong buffers: pass i reads side i & 1 and writes the other, except that an out-of-place
// sort's first pass reads the input (keys_in, values_in) instead.
struct Sides {
  rt::Buffer* keys[2];
  rt::Buffer* values[2];
  rt::Buffer* keys_in = nullptr;
  rt::Buffer* values_in = nullptr;
  rt::Buffer& keys_from(std::size_t pass) const { return pass == 0 && keys_in ? *keys_in : *keys[pass & 1]; }
  rt::Buffer& values_from(std::size_t pass) const { return pass == 0 && values_in ? *values_in : *values[pass & 1]; }
  rt::Buffer& keys_to(std::size_t pass) const { return *keys[(pass + 1) & 1]; }
  rt::Buffer& values_to(std::size_t pass) const { return *values[(pass + 1) & 1]; }
};

// The sides for `planned` passes: in place, the caller's buffers first; out of place, ordered so that
// the last planned pass writes the caller's output (an odd count: the first pass writes it).
Sides sides_for(SortJob& job, rt::Buffer* tmp_keys, rt::Buffer* tmp_values, std::size_t planned) {
  rt::Buffer* out_keys = &job.keys;
  rt::Buffer* out_values = &job.values_or_keys();
  rt::Buffer* other_values = tmp_values ? tmp_values : tmp_keys;
  Sides s{{out_keys, tmp_keys}, {out_values, other_values}};
  if (job.keys_in) {
    s.keys_in = job.keys_in;
    // values in place (the planned count is even then): the first pass reads them from their side 0
    s.values_in = job.values_in;
    if (planned & 1) s = {{tmp_keys, out_keys}, {other_values, out_values}, s.keys_in, s.values_in};
  }
  return s;
}

// A portion of the onesweep path: keys [first, first + n) of the input, and its offsets block.
struct Portion {
  std::uint64_t first = 0, n = 0;
};
std::vector<Portion> portions_of(const RadixPolicy& p, std::uint64_t n) {
  const std::uint64_t size = p.onesweep.portion ? p.onesweep.portion : n;
  std::vector<Portion> out;
  for (std::uint64_t first = 0; first < n; first += size) out.push_back({first, std::min(size, n - first)});
  return out;
}

// A view of `b` from element `first` of `bytes_each` bytes (the whole buffer for the first portion).
rt::BufferPtr view_from(rt::Device& dev, rt::Buffer& b, std::uint64_t first, std::size_t bytes_each) {
  return dev.sub_buffer(b, first * bytes_each, b.bytes() - first * bytes_each);
}

// Every pass's digit counts, [pass][digit], read back from the histogram (on queue q, else the
// default queue).
std::vector<std::uint64_t> read_histogram(SortJob& job, const RadixPolicy& p, rt::Buffer& hist,
                                          rt::Queue* q = nullptr) {
  std::vector<std::uint64_t> h(std::size_t(p.passes) * kRadix);
  job.device.read(hist, 0, h.data(), h.size() * 8, q);
  return h;
}

// The passes from `first` on that change anything: one bin == n means every key has that digit.
std::vector<std::uint32_t> nontrivial_passes(const std::vector<std::uint64_t>& h, std::uint64_t n,
                                             const RadixPolicy& p, std::uint32_t first) {
  std::vector<std::uint32_t> passes;
  for (std::uint32_t pass = first; pass < p.passes; ++pass) {
    bool trivial = false;
    for (std::uint32_t d = 0; d < kRadix; ++d)
      if (h[std::size_t(pass) * kRadix + d] == n) trivial = true;
    if (!trivial) passes.push_back(pass);
  }
  return passes;
}

// After an odd number of passes the result is in the temporaries: back to the caller's buffers.
void copy_back(SortJob& job, const RadixTempLayout& l, rt::Buffer& tmp_keys, rt::Buffer* tmp_values) {
  job.device.copy(tmp_keys, 0, job.keys, 0, l.keys);
  if (job.values) job.device.copy(*tmp_values, 0, *job.values, 0, l.values);
}

// The passes to launch first, and whether the rest are decided after the first one is launched
// (onesweep above no_skip_max_n: OnesweepPolicy's read-back while the device runs pass 0).
struct PassPlan {
  std::vector<std::uint32_t> passes;
  bool decide_after_first = false;
};
PassPlan plan_passes(SortJob& job, const RadixPolicy& p, rt::Buffer& hist) {
  PassPlan plan;
  if (p.path == RadixPath::onesweep) {
    if (job.n <= p.onesweep.no_skip_max_n) {
      for (std::uint32_t pass = 0; pass < p.passes; ++pass) plan.passes.push_back(pass);
    } else {
      plan.passes = {0};
      plan.decide_after_first = p.passes > 1;
    }
    return plan;
  }
  plan.passes = nontrivial_passes(read_histogram(job, p, hist), job.n, p, 0);
  return plan;
}

// NVIDIA GPUs: per pass one radix_onesweep launch over tiles of group x items keys; with portions
// (CUDA), one per pass and portion, each with its own tile counter and status words, and its own
// offsets block (the launch of portion k writes portion k + 1's). counters and status are zeroed by
// the caller; status2 is the second status buffer when the caller has one (else requested here, only
// when more than one launch runs). With plan.decide_after_first, the passes after the first come from
// the histogram once the first is launched (its launch does not wait for the read-back): packed
// pairs then pack in the first pass and, if no later pass changes anything, unpack in the last one
// (a stable pass over a constant digit moves nothing). interleave_last (the segments' passes): packed
// pairs leave the last pass interleaved instead (kernels/radix_interleaved_pairs.h). Returns the number
// of passes launched.
std::size_t onesweep_passes(SortJob& job, const RadixPolicy& p, const RadixTempLayout& l, rt::Program& prog,
                            PassPlan plan, rt::Buffer& hist, rt::Buffer& meta, rt::Buffer& counters, rt::Buffer& status,
                            rt::Buffer* status2, const Sides& s, PhaseTimer& timer, bool interleave_last = false) {
  rt::Device& dev = job.device;
  const OnesweepPolicy& os = p.onesweep;
  std::vector<std::uint32_t>& passes = plan.passes;
  // the first pass packs, the last unpacks
  const bool packed = os.packed_pairs && (passes.size() > 1 || plan.decide_after_first);
  const std::vector<Portion> parts = portions_of(p, job.n);
  // Look-back status words in two buffers used by alternate launches, each launch clearing the next
  // one's rows (no reset launch per pass).
  const bool pingpong = passes.size() * parts.size() > 1 || plan.decide_after_first;
  // plan.decide_after_first: the histogram is read on a queue of its own once an event after it has
  // passed, while the default queue already runs the first pass
  std::unique_ptr<rt::Event> histogram_done = plan.decide_after_first ? dev.record() : nullptr;
  rt::BufferPtr requested = pingpong && !status2 ? job.temp(l.status2) : nullptr;
  rt::Buffer* st[2] = {&status, !pingpong ? &status : status2 ? status2 : requested.get()};
  const std::size_t local_bytes = onesweep_pass_local_bytes(p);
  const std::size_t ks = key_size(job.type), vs = job.values ? job.value_bytes : ks;
  std::vector<rt::BufferPtr> bases;  // portions: each one's offsets block, up to the last (its successor's)
  if (os.portion)
    for (std::size_t k = 0; k < parts.size(); ++k)
      bases.push_back(dev.sub_buffer(meta, l.bases_offset + k * l.block_stride, (parts.size() + 1 - k) * l.block_stride));
  std::uint64_t cleared = ceil_div(parts.front().n, os.tile());  // rows of st[0] known to be zero
  std::size_t j = 0;
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const bool packed_in = packed && i > 0;
    const bool last = i + 1 == passes.size() && !plan.decide_after_first;
    const std::uint32_t packed_out = !packed ? 0 : !last ? 1 : interleave_last ? 2 : 0;
    rt::Program& pass_prog =
        packed_in || packed_out ? program_for(job, p, RadixPath::onesweep, packed_in, packed_out) : prog;
    for (const Portion& part : parts) {
      const std::uint64_t tiles = ceil_div(part.n, os.tile());
      if (tiles > cleared)  // a longer launch after a shorter one: the rows the shorter did not clear
        dev.fill_bytes(*st[j & 1], 0, cleared * kRadix * 4, (tiles - cleared) * kRadix * 4);
      rt::BufferPtr keys_in = part.first ? view_from(dev, s.keys_from(i), part.first, ks) : nullptr;
      rt::BufferPtr values_in = part.first ? view_from(dev, s.values_from(i), part.first, vs) : nullptr;
      dev.launch(pass_prog.kernel("radix_onesweep"), {tiles, os.group, local_bytes, os.overlap_passes},
                 {keys_in ? *keys_in : s.keys_from(i), values_in ? *values_in : s.values_from(i), s.keys_to(i),
                  s.values_to(i), part.n, job.flip_arg(), passes[i] * kRadixBits,
                  os.portion ? *bases[&part - parts.data()] : hist, *st[j & 1], *st[(j + 1) & 1], counters,
                  static_cast<std::uint32_t>(j)});
      cleared = tiles;  // this launch cleared as many rows of the next buffer
      ++j;
    }
    timer.mark("onesweep pass " + std::to_string(passes[i]));
    if (plan.decide_after_first) {
      plan.decide_after_first = false;
      histogram_done->wait();
      const std::unique_ptr<rt::Queue> reader = dev.create_queue();
      const std::vector<std::uint32_t> rest =
          nontrivial_passes(read_histogram(job, p, hist, reader.get()), job.n, p, passes[0] + 1);
      passes.insert(passes.end(), rest.begin(), rest.end());
      if (packed && passes.size() == 1) passes.push_back(p.passes - 1);  // unpack
    }
  }
  return passes.size();
}

// CUDA segments (RadixPolicy::segments), with the histogram read back (h): where its top two digits
// are no more skewed than SegmentPolicy::skew_percent of an even spread, the onesweep passes
// sort by those two digits into the caller's buffers, radix_segment_starts finds the 2^16 segments
// of keys that share them, and the largest one's size is read back. If it fits the tile,
// radix_segment_tiles sorts every segment in place by its remaining bits. If not (digits that are
// even one by one but not together), the ordinary passes sort the caller's buffers in place: a stable
// sort of keys already moved by stable passes is still the stable sort of the input. Interleaved pairs
// (SegmentPolicy::interleaved): the tiles unpack them; the ordinary passes start from an unpacked copy
// in the temporaries (radix_segment_unpack). Returns false, having launched nothing, where the
// histogram says no: the caller runs the ordinary passes.
bool segments_sort(SortJob& job, const RadixPolicy& p, const RadixTempLayout& l, rt::Program& prog,
                   rt::Program& segments, const std::vector<std::uint64_t>& h, rt::Buffer& hist, rt::Buffer& meta,
                   rt::Buffer& counters, rt::Buffer& status, rt::Buffer* status2, rt::Buffer& seg,
                   rt::Buffer* tmp_keys, rt::Buffer* tmp_values, PhaseTimer& timer) {
  rt::Device& dev = job.device;
  for (std::uint32_t pass : {p.passes - 2, p.passes - 1})
    for (std::uint32_t d = 0; d < kRadix; ++d)
      if (h[std::size_t(pass) * kRadix + d] * kRadix * 100 > job.n * p.segments.skew_percent) return false;
  const SegmentPolicy& sp = p.segments;
  onesweep_passes(job, p, l, prog, PassPlan{{p.passes - 2, p.passes - 1}}, hist, meta, counters, status, status2,
                  sides_for(job, tmp_keys, tmp_values, 2), timer, sp.interleaved);
  const auto n32 = static_cast<std::uint32_t>(job.n);
  dev.fill_bytes(seg, 0, 0, 4);
  dev.launch(segments.kernel("radix_segment_starts"), {kRadix, kRadix},
             {job.keys, job.values_or_keys(), n32, job.flip_arg(), hist, seg});
  std::uint32_t largest = 0;
  dev.read(seg, 0, &largest, 4);
  timer.mark("segment starts (largest " + std::to_string(largest) + ")");
  if (largest + (sp.interleaved ? kSegmentInterleavedLead : 0) <= sp.tile()) {
    const std::string kernel = "radix_segment_tiles_" + std::to_string(sp.threads) + "_" + std::to_string(sp.items);
    dev.launch(segments.kernel(kernel),
               {std::uint64_t(1) << kSegmentBits, sp.threads,
                single_tile_local_bytes({sp.threads, sp.items}, key_size(job.type), job.value_bytes)},
               {job.keys, job.values_or_keys(), seg, job.flip_arg()});
    timer.mark(sp.interleaved ? "segment tiles (interleaved)" : "segment tiles");
    return true;
  }
  // the ordinary passes, in place, with fresh tile counters and status words
  dev.fill_bytes(counters, 0, 0, counters.bytes());
  dev.fill_bytes(status, 0, 0, status.bytes());
  const PassPlan all{nontrivial_passes(h, job.n, p, 0)};
  Sides in_place{{&job.keys, tmp_keys}, {&job.values_or_keys(), tmp_values ? tmp_values : tmp_keys}};
  if (sp.interleaved) {  // the passes start from the unpacked pairs in the temporaries
    dev.launch(segments.kernel("radix_segment_unpack"), {ceil_div(job.n, kSegmentUnpackGroup), kSegmentUnpackGroup},
               {job.keys, job.values_or_keys(), n32, *tmp_keys, *tmp_values});
    std::swap(in_place.keys[0], in_place.keys[1]);
    std::swap(in_place.values[0], in_place.values[1]);
  }
  const std::size_t ran = onesweep_passes(job, p, l, prog, all, hist, meta, counters, status, status2, in_place, timer);
  if ((ran & 1) != std::size_t(sp.interleaved)) copy_back(job, l, *tmp_keys, tmp_values);
  timer.mark("segments outgrew the tile: ordinary passes");
  return true;
}

// Other GPUs: per pass one radix_onesweep_portable launch over tiles of the portable shape. The
// status words ping-pong between two buffers as on CUDA (each launch clears the next one's rows; all
// launches have the same tiles); the first buffer and the counters were zeroed by the caller.
void portable_onesweep_passes(SortJob& job, const RadixPolicy& p, rt::Program& prog,
                              const std::vector<std::uint32_t>& passes, rt::Buffer& hist, rt::Buffer& counters,
                              rt::Buffer& status, rt::Buffer* status2, const Sides& s, PhaseTimer& timer) {
  const std::uint64_t tiles = ceil_div(job.n, p.portable.tile());
  rt::Buffer* st[2] = {&status, status2 ? status2 : &status};
  for (std::size_t i = 0; i < passes.size(); ++i) {
    job.device.launch(prog.kernel("radix_onesweep_portable"), {tiles, p.portable.group},
                      {s.keys_from(i), s.values_from(i), s.keys_to(i), s.values_to(i), job.n,
                       job.flip_arg(), passes[i] * kRadixBits, hist, *st[i & 1], *st[(i + 1) & 1], counters,
                       static_cast<std::uint32_t>(i)});
    timer.mark("onesweep pass " + std::to_string(passes[i]));
  }
}

// CPUs, and GPUs from 2^30 keys: per pass radix_count, radix_scan and radix_scatter over the spans.
void portable_passes(SortJob& job, const RadixPolicy& p, const RadixTempLayout& l, rt::Program& prog,
                     const std::vector<std::uint32_t>& passes, const Sides& s, PhaseTimer& timer) {
  rt::Device& dev = job.device;
  const PortablePolicy& pp = p.portable;
  rt::BufferPtr counts = job.temp(l.counts);
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const std::uint32_t shift = passes[i] * kRadixBits;
    rt::Buffer& src = s.keys_from(i);
    dev.launch(prog.kernel("radix_count"), {pp.spans.groups, pp.group},
               {src, job.n, job.flip_arg(), shift, pp.spans.span, counts});
    dev.launch(prog.kernel("radix_scan"), {1, pp.group}, {counts, std::uint64_t(kRadix) * pp.spans.groups});
    dev.launch(prog.kernel("radix_scatter"), {pp.spans.groups, pp.group},
               {src, s.values_from(i), s.keys_to(i), s.values_to(i), job.n, job.flip_arg(), shift, pp.spans.span,
                counts});
    timer.mark("pass " + std::to_string(passes[i]) + " (count+scan+scatter)");
  }
}

}  // namespace

void radix_sort(SortJob& job) {
  if (job.n <= 1) return;
  const RadixPolicy p = policy_for_buffers(job);
  rt::Device& dev = job.device;
  if (p.path == RadixPath::single_tile) {  // one launch: reads the input where it lies, no temporaries
    const SingleTilePolicy& st = p.single_tile;
    rt::Program& prog = program_for(job, p, p.path);
    const std::string kernel = st.bitonic_log2 ? "radix_small_bitonic_" + std::to_string(st.bitonic_log2)
                                               : "radix_single_tile_" + std::to_string(st.threads) + "_" +
                                                     std::to_string(st.items);
    rt::Buffer& keys_in = job.keys_in ? *job.keys_in : job.keys;
    rt::Buffer& values_in = job.values_in ? *job.values_in : job.values_or_keys();  // in place, or unread
    const std::uint32_t positions = job.values_are_positions ? 1 : 0;  // the kernel makes them
    job.values_are_positions = false;
    dev.launch(prog.kernel(kernel), {1, st.threads, single_tile_local_bytes(st, key_size(job.type), job.value_bytes)},
               {keys_in, values_in, job.keys, job.values_or_keys(), static_cast<std::uint32_t>(job.n), job.flip_arg(),
                positions});
    return;
  }
  if (job.values_are_positions) fill_job_positions(job);  // argsort on the other paths: the positions first
  if (p.path == RadixPath::single_group) {
    copy_input_to_output(job);
    radix_single_group_sort(job);
    return;
  }
  const bool onesweep = p.path == RadixPath::onesweep;
  const RadixTempLayout l = radix_temp_layout(p);

  // Temporaries first: if any allocation fails, nothing has been touched (radix_temp_bytes sums them).
  rt::BufferPtr tmp_keys = job.temp(l.keys);
  rt::BufferPtr tmp_values = job.values ? job.temp(l.values) : nullptr;
  rt::BufferPtr meta = job.temp(l.meta);
  // The pass counters and first status words: buffers of their own (onesweep passes other than
  // CUDA's: views are slow on NVIDIA's OpenCL), or on CUDA views of meta, zeroed with the histograms
  // by one fill (the second status buffer is then requested by the passes).
  const bool views = onesweep && !p.onesweep.opencl;
  rt::BufferPtr hist = views ? dev.sub_buffer(*meta, 0, l.hist) : meta;
  rt::BufferPtr counters = l.counters ? job.temp(l.counters)
                           : views    ? dev.sub_buffer(*meta, l.counters_offset, l.status_offset - l.counters_offset)
                                      : nullptr;
  rt::BufferPtr status = l.status ? job.temp(l.status) : views ? dev.sub_buffer(*meta, l.status_offset, l.status_bytes)
                                                               : nullptr;
  // the second status buffer: up front where the passes would request it more than once (the
  // segments' fallback runs them twice), so that nothing is requested after the first launch
  rt::BufferPtr status2 = (l.status || l.segments) && l.status2 ? job.temp(l.status2) : nullptr;
  rt::BufferPtr seg = l.segments ? job.temp(l.segments) : nullptr;
  rt::Program& prog = program_for(job, p, p.path);
  // built before anything runs, like prog: a failed build then leaves the input untouched
  rt::Program* segments = seg ? &program_for(job, p, RadixPath::segments) : nullptr;

  PhaseTimer timer{dev, job.options.verbose, "radix"};
  timer.mark("start");
  // 1. all histograms (radix_histogram.h's kernel in the portable programs, the lane histogram in the
  //    onesweep program), of the input where it lies
  rt::Buffer& input = job.keys_in ? *job.keys_in : job.keys;
  dev.fill_bytes(*meta, 0, 0, l.meta);
  if (l.counters) dev.fill_bytes(*counters, 0, 0, l.counters);
  if (l.status) dev.fill_bytes(*status, 0, 0, l.status);
  if (onesweep) {
    const RadixSpans& hs = p.onesweep.hist_spans;
    dev.launch(prog.kernel("radix_histogram_lanes"), {hs.groups, p.onesweep.hist_group, onesweep_hist_local_bytes(p)},
               {input, job.n, job.flip_arg(), hs.span, hist});
    if (p.onesweep.portion) {  // portion 0's offsets (the later ones come from the passes)
      const std::uint64_t blocks = p.onesweep.portions(job.n) + 1;
      rt::BufferPtr bases = dev.sub_buffer(*meta, l.bases_offset, blocks * l.block_stride);
      dev.launch(prog.kernel("radix_portion_bases"), {1, kRadix},
                 {*hist, *bases, static_cast<std::uint32_t>(blocks), static_cast<std::uint32_t>(l.block_stride / 8)});
    }
  } else {
    dev.launch(prog.kernel("radix_histogram"), {p.portable.spans.groups, p.portable.group},
               {input, job.n, job.flip_arg(), p.portable.spans.span, hist});
  }
  timer.mark("histogram");
  // CUDA segments read the histogram here; where they turn the input down, their read plans the passes
  std::optional<std::vector<std::uint64_t>> counts;
  if (seg) {
    counts = read_histogram(job, p, *hist);
    timer.mark("histogram read (segments)");
    if (segments_sort(job, p, l, prog, *segments, *counts, *hist, *meta, *counters, *status, status2.get(), *seg,
                      tmp_keys.get(), tmp_values.get(), timer)) {
      timer.print();
      return;
    }
  }

  // 2. passes that change anything
  const PassPlan plan = counts ? PassPlan{nontrivial_passes(*counts, job.n, p, 0)} : plan_passes(job, p, *hist);
  if (plan.passes.empty()) {  // every digit is constant: sorted already
    copy_input_to_output(job);
    return;
  }
  // (after the first pass is launched, when the plan says so: that read lands in the next phases)
  timer.mark(plan.decide_after_first ? "plan (histogram read once pass 0 is queued)" : "histogram read + skip");

  // 3. the passes (onesweep may decide the rest after the first: planned as every pass)
  const std::size_t planned = plan.decide_after_first ? p.passes : plan.passes.size();
  // keys apart with values in place and an odd count: the first pass would write the values over
  // themselves, so the keys are copied in and sorted in place (the histogram read them already)
  if (job.keys_in && job.values && !job.values_in && (planned & 1)) copy_input_to_output(job);
  const Sides sides = sides_for(job, tmp_keys.get(), tmp_values.get(), planned);
  std::size_t ran = plan.passes.size();
  if (onesweep)
    ran = onesweep_passes(job, p, l, prog, plan, *hist, *meta, *counters, *status, status2.get(), sides, timer);
  else if (p.path == RadixPath::portable_onesweep)
    portable_onesweep_passes(job, p, prog, plan.passes, *hist, *counters, *status, status2.get(), sides, timer);
  else
    portable_passes(job, p, l, prog, plan.passes, sides, timer);

  // 4. the last pass wrote the temporaries: the result goes back to the caller's buffers
  if (sides.keys[ran & 1] != &job.keys) {
    copy_back(job, l, *tmp_keys, tmp_values.get());
    timer.mark("copy back");
  }
  // No finish, as in the other drivers: pool temporaries may go back to the pool while the queue still
  // uses them (the pool lends them only to later work on the same in-order queue; larger ones are
  // freed directly, and cuMemFree / clReleaseMemObject wait for the work using them;
  // runtime/buffer_pool.hpp), and the caller's stop event waits on the queue. A finish was one host
  // round trip per sort (~5 us on the H200: the single-tile 2^8-key sort went 0.0149 -> 0.0104 ms).
  timer.print();
}

// The most radix_sort asks job.temp() for (radix_temp_layout: the same layout the sort uses).
std::uint64_t radix_temp_bytes(const TempQuery& q) {
  if (q.n <= 1) return 0;
  return radix_temp_layout(policy_for(q)).total();
}

// What the sort will run, in words (gpusort plan): the policy described by describe(RadixPolicy),
// and the choices the driver makes only once it has read the keys' histogram named as such.
std::vector<std::string> radix_plan_steps(const TempQuery& q) {
  const RadixPolicy p = policy_for(q);
  std::vector<std::string> steps = describe(p);
  if (p.path == RadixPath::onesweep || p.path == RadixPath::portable_onesweep || p.path == RadixPath::portable)
    steps.push_back("at run time: the histogram read back skips each later pass whose digit is the same for "
                    "every key" +
                    std::string(p.segments.threads ? "; the segments run only where no top digit is skewed, "
                                                     "else the ordinary passes"
                                                   : ""));
  return steps;
}

}  // namespace gpusort::algo
