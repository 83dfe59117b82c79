// LSD radix sort driver (issue 5). Digits come from ordered_key(k, flip) (kernels/keys.h), so
// signed, float and descending orders need no special passes, and the data moves as its original
// bits: NaN payloads and the sign of zero survive. Stable by construction (every pass is a stable
// counting scatter).
//
// 1. radix_histogram: every pass's digit histogram at once (one read of the keys).
// 2. Read the histogram back; a pass whose digit is the same for all keys is skipped (narrow or
//    low-entropy data, small integers in wide types: fewer passes).
// 3. Per remaining pass, ping-pong between the caller's buffers and one temporary copy:
//    - CUDA devices (n < 2^30): radix_onesweep.cl, one kernel per pass (rank, decoupled look-back,
//      scatter);
//    - elsewhere: radix_passes.cl, count + scan + stable scatter.
// 4. After an odd number of passes the result is in the temporary: copy it back.
// Extra device memory: n keys + n values (the ping-pong copy), plus the histograms
// (passes x 256 x 8 bytes) and, per path, counts (256 x groups x 8 bytes) or look-back status
// words (256 x tiles x 4 bytes). See docs/algorithms/radix.md.
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <utility>

#include "algorithms/drivers.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint32_t kRadixBits = 8;
constexpr std::uint32_t kRadix = 1u << kRadixBits;

// Tuning knobs per device class; options.work_group_size / items_per_thread override the portable
// path's group size and items per work-item.
struct PortablePolicy {
  std::uint32_t group = 64;   // radix_scatter keeps RADIX x group u16 counters in local memory
  std::uint32_t items = 16;   // keys per work-item per tile
  std::uint32_t groups_per_compute_unit = 8;  // spans (work-groups) per compute unit on GPUs; 2 on CPUs
};

struct OnesweepPolicy {
  std::uint32_t group = 256;   // threads per block; must be RADIX (one look-back digit per thread)
  std::uint32_t items = 16;    // keys per thread: a tile is 4096 keys (28 for <= 4-byte keys and values)
  std::uint32_t hist_group = 256;
  std::uint64_t max_n = (1ull << 30) - 1;  // look-back status words carry 30-bit counts
  // up to here: no histogram read-back, every pass runs (H200: the blocking read-back costs ~0.02 ms,
  // a pass over 2^22 u32 keys ~0.045 ms: uniform keys gain, data with skippable digits lose there)
  std::uint64_t no_skip_max_n = 1ull << 22;
};

struct Plan {
  std::uint64_t groups = 1;
  std::uint64_t span = 0;  // keys per group (whole tiles)
};

Plan plan_spans(std::uint64_t n, std::uint64_t tile, std::uint64_t max_groups) {
  const std::uint64_t tiles = ceil_div(n, tile);
  // local u32 counters: a span stays below 2^31 keys
  const std::uint64_t min_groups = ceil_div(n, 1ull << 31);
  std::uint64_t groups = std::min(tiles, std::max(max_groups, min_groups));
  if (groups == 0) groups = 1;
  const std::uint64_t tiles_per_group = ceil_div(tiles, groups);
  return {ceil_div(tiles, tiles_per_group), tiles_per_group * tile};
}

// Values in their own staging area (one barrier before a joint key+value scatter) when that still
// fits 3 blocks per SM: keys + values of <= 8 bytes together (radix_onesweep.cl, ONESWEEP_SPLIT_STAGE).
bool onesweep_split_stage(std::size_t key_bytes, std::size_t value_bytes) {
  return value_bytes != 0 && key_bytes + value_bytes <= 8 && std::getenv("GPUSORT_RADIX_NO_SPLIT") == nullptr;
}
// Packed pairs (radix_onesweep.cl, ONESWEEP_PACKED_IN/OUT): 4-byte keys with 4-byte values
// travel as one 8-byte word per pair between the first and the last pass (same buffers, same bytes:
// the kernel's radix_packed_* say where each pair lives), so those passes load and store one word
// per pair instead of two. H200, u32/u32 (device runs 54-56): 2^28 7.61 -> 7.19 ms, 2^26 2.03 ->
// 1.92, 2^24 0.600 -> 0.595; slower below (2^23 0.364 -> 0.373, 2^20 0.076 -> 0.082: the packed
// loads hold the values in shared memory through the ranking, one more barrier per tile), hence
// from 2^24 pairs. f32 keys (staged digit bytes, ptxas spills 52 bytes packed), run 61: 2^28 8.04 ->
// 7.74 ms, 2^26 2.10 either way, 2^24 0.613 -> 0.67-0.69: from 2^26. GPUSORT_RADIX_PACKED=0|1: A/B.
template <class Job>
bool onesweep_packed_pairs(const Job& job) {
  if (key_size(job.type) != 4 || job.value_bytes != 4 || !onesweep_split_stage(4, 4)) return false;
  if (const char* e = std::getenv("GPUSORT_RADIX_PACKED")) return std::atoi(e) != 0;
  return job.n >= (1ull << (is_float(job.type) ? 26 : 24));
}
template <class Job>  // SortJob or TempQuery
OnesweepPolicy onesweep_policy(const Job& job) {
  OnesweepPolicy op;
  // H200, 2^28 u32 keys: 12 items 10.1 ms, 16: 9.2 ms, 20: 8.5 ms, 24: 8.4 ms (registers limit 64-bit keys);
  // early-counts ranking (2026-11-21): keys only 24: 7.56 ms, 28: 7.38 ms (pairs keep 24: registers)
  // 2026-11-21 sixth round (cheaper ranking, values staged beside the keys, digits recomputed):
  // u32/u32 2^28 24 items 8.08 ms, 28: 7.86, 32: 7.73, 40 (2 blocks/SM): 7.78; u32 keys 28: 4.90,
  // 32: 5.14, 40: 5.15; u64/u64 16 items (3 blocks/SM) 26.04, 24 (2 blocks/SM): 24.56
  const std::size_t ks = key_size(job.type);
  if (ks <= 4 && job.value_bytes <= 4) {
    op.items = job.value_bytes ? 32 : 28;
    // u32/u32 from 2^22 to 2^24 (unpacked): 24 items, more tiles for the last wave (H200 run 57: 2^22
    // 0.215 -> 0.200 ms, 2^23 0.368 -> 0.357; 2^21 and 2^20 0.108 / 0.076 at 32 items vs 0.112 / 0.080);
    // packed (onesweep_packed_pairs, from 2^24): 28 items (runs 58-59, 2^28: 7.31-7.32 ms in 4 of 4
    // runs; 32 items 7.38 once and 7.63 five times; 2^26 1.95 vs 1.96-2.02; 2^24 0.604 vs 0.596)
    if (ks == 4 && job.value_bytes == 4 && job.n >= (1ull << 22))
      op.items = job.n < (1ull << 24) ? 24 : onesweep_packed_pairs(job) ? 28 : 32;
  } else if (job.value_bytes != 0 && job.value_bytes <= 8 && job.n >= (1ull << 22)) {
    // values staged after the keys: 24 items (2 blocks/SM) for large n; at 2^12..2^18 u64/u64 the
    // bigger tiles were 15-25% slower than 16 items at 3 blocks/SM (fewer tiles than SM slots)
    op.items = 24;
  }
  if (const char* it = std::getenv("GPUSORT_RADIX_ITEMS")) op.items = static_cast<std::uint32_t>(std::atoi(it));  // tuning
  if (job.options.items_per_thread != 0)
    op.items = static_cast<std::uint32_t>(std::min<std::size_t>(job.options.items_per_thread, 64));
  op.items = std::max<std::uint32_t>(1, std::min<std::uint32_t>(op.items, 64));
  return op;
}

// The scatter recomputes each staged key's digit instead of reading a staged digit byte
// (ONESWEEP_RECOMPUTE_DIGIT: needs integer keys staged apart from their values). H200 2^28: u64 keys
// 13.88 vs 14.07 ms, u32/u32 7.85 vs 7.89 and a tile's bytes of local memory less (room for bigger
// pair tiles); u32 keys 5.05 vs 4.90 (their ranking is ALU-bound), so not for 4-byte keys alone.
// GPUSORT_RADIX_RECOMPUTE=0|1: tuning A/B.
template <class Job>
bool onesweep_recompute_digit(const Job& job) {
  const std::size_t ks = key_size(job.type);
  if (is_float(job.type) || (job.value_bytes != 0 && !onesweep_split_stage(ks, job.value_bytes))) return false;
  if (const char* e = std::getenv("GPUSORT_RADIX_RECOMPUTE")) return std::atoi(e) != 0;
  return ks == 8 || job.value_bytes != 0;
}
// Look-back status words in two buffers used by alternate passes, each pass clearing the other's
// (no reset launch per pass); GPUSORT_RADIX_FILL_STATUS: one buffer reset before each pass (A/B).
bool onesweep_status_pingpong() { return std::getenv("GPUSORT_RADIX_FILL_STATUS") == nullptr; }
bool onesweep_hist_lanes() { return std::getenv("GPUSORT_RADIX_NO_HIST_LANES") == nullptr; }
// Look-back snapshot: W predecessors' status words copied into shared memory mid-ranking
// (radix_onesweep.cl, ONESWEEP_LOOKBACK_SNAPSHOT). H200 2^28 (seventh round): u64 keys 13.87 ->
// 13.58 and 13.79 -> 13.43 ms with W = 4; u32 keys, u32/u32 and u64/u64 pairs no gain or slower.
// GPUSORT_RADIX_SNAPSHOT=W: tuning A/B.
template <class Job>
std::uint32_t onesweep_snapshot(const Job& job) {
  if (const char* e = std::getenv("GPUSORT_RADIX_SNAPSHOT")) return static_cast<std::uint32_t>(std::max(0, std::min(64, std::atoi(e))));
  return key_size(job.type) == 8 && job.value_bytes == 0 ? 4u : 0u;
}
template <class Job>
std::size_t onesweep_snapshot_bytes(const Job& job) {
  const std::uint32_t w = onesweep_snapshot(job);
  return w ? 16 + std::size_t(w) * kRadix * 4 : 0;  // 16: the area's alignment
}

// The onesweep path's small temporaries share one buffer that one fill zeroes: the histograms, the
// pass counters and the first pass's look-back status words (three fills were three launches,
// a few microseconds of a 2^16-key sort). Views start at multiples of 4096 bytes (runtime rule).
std::size_t radix_hist_bytes(std::uint32_t num_passes) {
  return std::size_t(num_passes) * kRadix * 8 + 8;  // + radix_histogram_lanes' -0/NaN flag word
}
struct OnesweepMeta {
  std::size_t counters_offset, status_offset, status_bytes, bytes;
};
OnesweepMeta onesweep_meta(std::uint32_t num_passes, std::uint64_t tiles) {
  const std::size_t counters_offset = ceil_div(radix_hist_bytes(num_passes), 4096) * 4096;
  const std::size_t status_offset = counters_offset + 4096;
  const std::size_t status_bytes = tiles * kRadix * 4;
  return {counters_offset, status_offset, status_bytes, status_offset + status_bytes};
}
// radix_histogram_lanes' counter copies: 32 up to four passes, 16 beyond (GPUSORT_RADIX_HIST_COPIES=16|32: tuning)
std::uint32_t onesweep_hist_copies(std::uint32_t passes) {
  if (const char* c = std::getenv("GPUSORT_RADIX_HIST_COPIES")) return std::atoi(c) == 16 ? 16 : 32;
  return passes <= 4 ? 32 : 16;
}

// The one program (histogram + passes) of the onesweep path.
template <class Job>
std::vector<std::string> onesweep_defines(const Job& job, const OnesweepPolicy& op) {
  auto defines = job.key_defines();
  defines.push_back("RADIX_BITS=" + std::to_string(kRadixBits));
  defines.push_back("GROUP_SIZE=" + std::to_string(op.group));
  defines.push_back("ITEMS=" + std::to_string(op.items));
  defines.push_back(std::string("ONESWEEP_SPLIT_STAGE=") + (onesweep_split_stage(key_size(job.type), job.value_bytes) ? "1" : "0"));
  defines.push_back(std::string("RADIX_HIST_LANES=") + (onesweep_hist_lanes() ? "1" : "0"));
  defines.push_back(std::string("ONESWEEP_RECOMPUTE_DIGIT=") + (onesweep_recompute_digit(job) ? "1" : "0"));
  if (const std::uint32_t w = onesweep_snapshot(job); w != 0) defines.push_back("ONESWEEP_LOOKBACK_SNAPSHOT=" + std::to_string(w));
  const auto passes = static_cast<std::uint32_t>((key_size(job.type) * 8 + kRadixBits - 1) / kRadixBits);
  defines.push_back("RADIX_HIST_COPIES=" + std::to_string(onesweep_hist_copies(passes)));
  // float keys: the lane histogram flags -0/NaN keys, the passes use the plain sign flip otherwise
  const bool float_keys = std::find(defines.begin(), defines.end(), "KEY_KIND=2") != defines.end();
  if (float_keys && onesweep_hist_lanes() && std::getenv("GPUSORT_RADIX_NO_FLOAT_FLAG") == nullptr)
    defines.push_back("RADIX_FLOAT_FLAG=1");
  // tuning experiments only: blocks per SM that __launch_bounds__ keeps registers for; extra defines
  // (GPUSORT_RADIX_DEFINES: separated by spaces or commas)
  if (const char* mb = std::getenv("GPUSORT_RADIX_MIN_BLOCKS")) defines.push_back(std::string("ONESWEEP_MIN_BLOCKS=") + mb);
  if (const char* ex = std::getenv("GPUSORT_RADIX_DEFINES")) {
    std::string all(ex), one;
    for (char c : all + " ") {
      if (c == ' ' || c == ',') {
        if (!one.empty()) defines.push_back(one);
        one.clear();
      } else {
        one += c;
      }
    }
  }
  return defines;
}

}  // namespace

// The onesweep program's definitions with the driver's defaults for a key type and value width (the
// build-matrix test compiles each with NVRTC: ptxas failures show up without a GPU).
std::vector<std::vector<std::string>> radix_onesweep_program_defines(key_type type, std::size_t value_bytes, std::uint64_t n) {
  struct Query {
    key_type type;
    std::size_t value_bytes;
    std::uint64_t n;
    SortOptions options;
    std::vector<std::string> key_defines() const { return key_defines_for(type, value_bytes); }
  } q{type, value_bytes, n, SortOptions{}};
  const auto defines = onesweep_defines(q, onesweep_policy(q));
  std::vector<std::vector<std::string>> all{defines};
  if (onesweep_packed_pairs(q))  // the passes that read or write packed pairs
    for (const char* io : {"ONESWEEP_PACKED_IN=0 ONESWEEP_PACKED_OUT=1", "ONESWEEP_PACKED_IN=1 ONESWEEP_PACKED_OUT=1",
                           "ONESWEEP_PACKED_IN=1 ONESWEEP_PACKED_OUT=0"}) {
      auto d = defines;
      const std::string both(io);
      d.push_back(both.substr(0, both.find(' ')));
      d.push_back(both.substr(both.find(' ') + 1));
      all.push_back(std::move(d));
    }
  return all;
}

namespace {

rt::Program& onesweep_program(const SortJob& job, const OnesweepPolicy& op, bool packed_in = false, bool packed_out = false) {
  auto defines = onesweep_defines(job, op);
  if (packed_in || packed_out) {
    defines.push_back(std::string("ONESWEEP_PACKED_IN=") + (packed_in ? "1" : "0"));
    defines.push_back(std::string("ONESWEEP_PACKED_OUT=") + (packed_out ? "1" : "0"));
  }
  return job.device.program("radix_onesweep.cl", defines);
}

template <class Job>
bool use_onesweep(const Job& job) {
  return job.device.description().backend == "cuda" && job.n <= OnesweepPolicy{}.max_n;
}

// CUDA, small n: one block sorts everything (radix_onesweep.cl, radix_single_tile_<threads>_<items>):
// the smallest tile shape that holds n; no temporaries. A shape exists when its keys and values fit
// a thread's registers (the kernel file's rule). Explicit group size or items per thread ask for the
// tiled path. GPUSORT_RADIX_SINGLE_TILE_MAX=<n>: tuning (0: off).
struct SingleTileShape {
  std::uint32_t threads = 0, items = 0;
  std::uint64_t tile() const { return std::uint64_t(threads) * items; }
};
SingleTileShape single_tile_shape(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes) {
  const std::uint32_t regs = static_cast<std::uint32_t>((key_bytes + 3) / 4 + (value_bytes + 3) / 4);
  const SingleTileShape shapes[] = {{256, 4}, {512, 4}, {512, 8}, {1024, 8}, {1024, 16}};
  for (const SingleTileShape& s : shapes) {
    const std::uint32_t budget = s.threads == 256 ? ~0u : s.threads == 512 ? 32 : 16;
    if (s.items * regs <= budget && s.tile() >= n) return s;
  }
  return {};  // n is too large
}
std::size_t single_tile_local_bytes(const SingleTileShape& s, std::size_t key_bytes, std::size_t value_bytes) {
  return s.tile() * (key_bytes + value_bytes) + (s.threads / 32) * kRadix * 4;
}
// The shape this job's single-tile sort would take; threads == 0: the path does not apply.
template <class Job>
SingleTileShape single_tile_for(const Job& job) {
  if (!use_onesweep(job) || job.options.work_group_size != 0 || job.options.items_per_thread != 0) return {};
  const std::size_t ks = key_size(job.type);
  const SingleTileShape shape = single_tile_shape(job.n, ks, job.value_bytes);
  std::uint64_t cap = shape.tile();
  if (const char* e = std::getenv("GPUSORT_RADIX_SINGLE_TILE_MAX")) cap = std::min<std::uint64_t>(cap, std::strtoull(e, nullptr, 10));
  const auto& desc = job.device.description();
  const bool fits = job.n <= cap && shape.threads <= desc.max_work_group_size &&
                    single_tile_local_bytes(shape, ks, job.value_bytes) <= desc.local_memory_bytes;
  return fits ? shape : SingleTileShape{};
}

template <class Job>
PortablePolicy portable_policy(const Job& job) {
  const auto& desc = job.device.description();
  PortablePolicy pp;
  // A requested work-group size is validated, then capped so radix_scatter's 256 u16 counters per
  // work-item fit the device's local memory (at most 128 work-items); items per work-item 1..64.
  pp.group = checked_group_size(job.device, job.options.work_group_size, pp.group);
  while (pp.group > 1 && (pp.group > 128 || std::uint64_t(kRadix) * pp.group * 2 + 4096 > desc.local_memory_bytes))
    pp.group >>= 1;
  if (job.options.items_per_thread != 0)
    pp.items = static_cast<std::uint32_t>(std::min<std::size_t>(job.options.items_per_thread, 64));
  if (!desc.is_gpu) pp.groups_per_compute_unit = 2;
  return pp;
}

// options.verbose: device time of each phase, to stderr.
struct PhaseTimer {
  rt::Device& dev;
  bool on;
  std::vector<std::pair<std::string, std::unique_ptr<rt::Event>>> marks;
  void mark(std::string what) {
    if (on) marks.emplace_back(std::move(what), dev.record());
  }
  void print() {
    if (!on || marks.size() < 2) return;
    marks.back().second->wait();
    for (std::size_t i = 1; i < marks.size(); ++i)
      std::fprintf(stderr, "radix: %-24s %8.3f ms\n", marks[i].first.c_str(),
                   marks[i].second->elapsed_ms_since(*marks[i - 1].second));
  }
};

}  // namespace

void radix_onesweep_passes(SortJob& job, const OnesweepPolicy& op, rt::Program& prog, const std::vector<std::uint32_t>& passes,
                           rt::Buffer& hist, rt::Buffer& meta, const OnesweepMeta& layout, rt::Buffer* bufs_k[2],
                           rt::Buffer* bufs_v[2], PhaseTimer& timer);

void radix_sort(SortJob& job) {
  if (job.n <= 1) return;
  if (const SingleTileShape shape = single_tile_for(job); shape.threads != 0) {  // one launch, in place
    rt::Program& prog = onesweep_program(job, onesweep_policy(job));
    job.device.launch(prog.kernel("radix_single_tile_" + std::to_string(shape.threads) + "_" + std::to_string(shape.items)),
                      {1, shape.threads, single_tile_local_bytes(shape, key_size(job.type), job.value_bytes)},
                      {job.keys, job.values_or_keys(), static_cast<std::uint32_t>(job.n), job.flip_arg()});
    return;
  }
  if (radix_single_group_fits(job)) { radix_single_group_sort(job); return; }
  rt::Device& dev = job.device;
  const std::uint64_t n = job.n;
  const std::size_t ks = key_size(job.type);
  const std::uint32_t key_bits = static_cast<std::uint32_t>(ks * 8);
  const std::uint32_t num_passes = (key_bits + kRadixBits - 1) / kRadixBits;
  const bool onesweep = use_onesweep(job);
  const auto& desc = dev.description();

  const PortablePolicy pp = portable_policy(job);

  auto defines = job.key_defines();
  defines.push_back("RADIX_BITS=" + std::to_string(kRadixBits));
  auto portable_defines = defines;
  portable_defines.push_back("GROUP_SIZE=" + std::to_string(pp.group));
  portable_defines.push_back("ITEMS=" + std::to_string(pp.items));

  // Temporaries first: if any allocation fails, nothing has been touched (radix_temp_bytes sums them).
  rt::BufferPtr tmp_keys = job.temp(n * ks);
  rt::BufferPtr tmp_values = job.values ? job.temp(n * job.value_bytes) : nullptr;
  rt::BufferPtr meta, hist;  // onesweep: hist is a view of meta (onesweep_meta)
  OnesweepMeta layout{};
  const OnesweepPolicy op = onesweep_policy(job);
  if (onesweep) {
    layout = onesweep_meta(num_passes, ceil_div(n, std::uint64_t(op.group) * op.items));
    meta = job.temp(layout.bytes);
    hist = dev.sub_buffer(*meta, 0, radix_hist_bytes(num_passes));
  } else {
    hist = job.temp(radix_hist_bytes(num_passes));
  }

  const std::uint64_t tile = std::uint64_t(pp.group) * pp.items;
  const Plan plan = plan_spans(n, tile, std::uint64_t(std::max(1u, desc.compute_units)) * pp.groups_per_compute_unit);

  rt::Program* portable = nullptr;
  auto portable_program = [&]() -> rt::Program& {
    if (!portable) portable = &dev.program("radix_passes.cl", portable_defines);
    return *portable;
  };

  PhaseTimer timer{dev, job.options.verbose, {}};
  timer.mark("start");
  // 1. all histograms (the portable program's kernel; on CUDA the onesweep program's own copy)
  if (onesweep)
    dev.fill_bytes(*meta, 0, 0, layout.bytes);
  else
    dev.fill_bytes(*hist, 0, 0, hist->bytes());
  rt::Program* onesweep_prog = onesweep ? &onesweep_program(job, op) : nullptr;
  if (onesweep) {
    rt::Program& prog = *onesweep_prog;
    if (onesweep_hist_lanes()) {
      // radix_histogram_lanes: u16 lane counters, so a span stays below 2^19 keys; 64 KiB (16 KiB
      // per pass up to 4 passes, 8 KiB per pass beyond) of dynamic local memory
      const std::uint64_t max_groups = std::max<std::uint64_t>(std::uint64_t(desc.compute_units) * 8, ceil_div(n, 1ull << 19));
      const Plan hp = plan_spans(n, std::uint64_t(op.hist_group) * 32, max_groups);
      const std::size_t lane_bytes = std::size_t(num_passes) * onesweep_hist_copies(num_passes) * (kRadix / 2) * 4;
      dev.launch(prog.kernel("radix_histogram_lanes"), {hp.groups, op.hist_group, lane_bytes},
                 {job.keys, n, job.flip_arg(), hp.span, hist});
    } else {
      const Plan hp = plan_spans(n, std::uint64_t(op.hist_group) * 32, std::uint64_t(desc.compute_units) * 8);
      dev.launch(prog.kernel("radix_histogram"), {hp.groups, op.hist_group}, {job.keys, n, job.flip_arg(), hp.span, hist});
    }
  } else {
    dev.launch(portable_program().kernel("radix_histogram"), {plan.groups, pp.group},
               {job.keys, n, job.flip_arg(), plan.span, hist});
  }
  timer.mark("histogram");

  // 2. passes that change anything. Small n on the onesweep path runs every pass instead: the
  // blocking histogram read-back costs more there than the passes it could skip.
  std::vector<std::uint32_t> passes;
  std::uint64_t no_skip_max_n = OnesweepPolicy{}.no_skip_max_n;
  if (const char* e = std::getenv("GPUSORT_RADIX_NO_SKIP_LOG2")) no_skip_max_n = 1ull << std::atoi(e);  // tuning
  if (onesweep && n <= no_skip_max_n) {
    for (std::uint32_t p = 0; p < num_passes; ++p) passes.push_back(p);
  } else {
    std::vector<std::uint64_t> h(std::size_t(num_passes) * kRadix);
    dev.read(*hist, 0, h.data(), h.size() * 8);
    for (std::uint32_t p = 0; p < num_passes; ++p) {
      bool trivial = false;
      for (std::uint32_t d = 0; d < kRadix; ++d)
        if (h[std::size_t(p) * kRadix + d] == n) trivial = true;
      if (!trivial) passes.push_back(p);
    }
  }
  if (passes.empty()) return;
  timer.mark("histogram read + skip");

  rt::Buffer* bk[2] = {&job.keys, tmp_keys.get()};
  rt::Buffer* bv[2] = {&job.values_or_keys(), tmp_values ? tmp_values.get() : tmp_keys.get()};

  // 3. the passes
  if (onesweep) {
    radix_onesweep_passes(job, op, *onesweep_prog, passes, *hist, *meta, layout, bk, bv, timer);
  } else {
    rt::Program& prog = portable_program();
    rt::BufferPtr counts = job.temp(std::size_t(kRadix) * plan.groups * 8);
    for (std::size_t i = 0; i < passes.size(); ++i) {
      const std::uint32_t shift = passes[i] * kRadixBits;
      rt::Buffer& src = *bk[i & 1];
      rt::Buffer& dst = *bk[(i + 1) & 1];
      dev.launch(prog.kernel("radix_count"), {plan.groups, pp.group},
                 {src, n, job.flip_arg(), shift, plan.span, counts});
      dev.launch(prog.kernel("radix_scan"), {1, pp.group}, {counts, std::uint64_t(kRadix) * plan.groups});
      dev.launch(prog.kernel("radix_scatter"), {plan.groups, pp.group},
                 {src, *bv[i & 1], dst, *bv[(i + 1) & 1], n, job.flip_arg(), shift, plan.span, counts});
      timer.mark("pass " + std::to_string(passes[i]) + " (count+scan+scatter)");
    }
  }

  // 4. odd number of passes: the result is in the temporaries
  if (passes.size() & 1) {
    dev.copy(*tmp_keys, 0, job.keys, 0, n * ks);
    if (job.values) dev.copy(*tmp_values, 0, *job.values, 0, n * job.value_bytes);
    timer.mark("copy back");
  }
  // No finish, as in the other drivers: pool temporaries may go back to the pool while the queue still
  // uses them (the pool lends them only to later work on the same in-order queue; larger ones are
  // freed directly, and cuMemFree / clReleaseMemObject wait for the work using them;
  // runtime/buffer_pool.hpp), and the caller's stop event waits on the queue. A finish was one host
  // round trip per sort (~5 us on the H200: the single-tile 2^8-key sort went 0.0149 -> 0.0104 ms).
  timer.print();
}

}  // namespace gpusort::algo

namespace gpusort::algo {

// CUDA fast path: per pass one radix_onesweep launch over tiles of group * items keys.
void radix_onesweep_passes(SortJob& job, const OnesweepPolicy& op, rt::Program& prog, const std::vector<std::uint32_t>& passes,
                           rt::Buffer& hist, rt::Buffer& meta, const OnesweepMeta& layout, rt::Buffer* bk[2],
                           rt::Buffer* bv[2], PhaseTimer& timer) {
  rt::Device& dev = job.device;
  const std::uint64_t n = job.n;
  const std::size_t ks = key_size(job.type);
  // packed pairs: the first pass packs, the last unpacks, the ones between stay packed
  const bool packed = passes.size() > 1 && onesweep_packed_pairs(job);

  const std::uint64_t tile = std::uint64_t(op.group) * op.items;
  const std::uint64_t tiles = ceil_div(n, tile);
  const bool pingpong = onesweep_status_pingpong() && passes.size() > 1;
  // counters and the first status buffer: views of meta, zeroed with the histograms
  rt::BufferPtr status = dev.sub_buffer(meta, layout.status_offset, layout.status_bytes);
  rt::BufferPtr status2 = pingpong ? job.temp(tiles * kRadix * 4) : nullptr;
  rt::BufferPtr counters = dev.sub_buffer(meta, layout.counters_offset, passes.size() * 4);
  rt::Buffer* st[2] = {status.get(), pingpong ? status2.get() : status.get()};
  // staging buffer(s) + per-warp digit offsets + staged digits unless recomputed (radix_onesweep.cl)
  const std::size_t stage_item = onesweep_split_stage(ks, job.value_bytes) ? ks + job.value_bytes
                                                                          : std::max<std::size_t>(ks, job.value_bytes);
  const std::size_t stage = tile * stage_item + (op.group / 32) * kRadix * 4 + (onesweep_recompute_digit(job) ? 0 : tile) +
                            onesweep_snapshot_bytes(job);
  for (std::size_t i = 0; i < passes.size(); ++i) {
    if (!pingpong && i > 0) {  // ping-pong: pass i clears the buffer of pass i + 1 (the first is zeroed)
      dev.fill_bytes(*st[i & 1], 0, 0, st[i & 1]->bytes());
      timer.mark("status reset");
    }
    const bool packed_in = packed && i > 0, packed_out = packed && i + 1 < passes.size();
    rt::Program& pass_prog = packed_in || packed_out ? onesweep_program(job, op, packed_in, packed_out) : prog;
    dev.launch(pass_prog.kernel("radix_onesweep"), {tiles, op.group, stage},
               {*bk[i & 1], *bv[i & 1], *bk[(i + 1) & 1], *bv[(i + 1) & 1], n, job.flip_arg(),
                passes[i] * kRadixBits, hist, *st[i & 1], *st[(i + 1) & 1], counters, static_cast<std::uint32_t>(i)});
    timer.mark("onesweep pass " + std::to_string(passes[i]));
  }
}

}  // namespace gpusort::algo

namespace gpusort::algo {

// The most radix_sort asks job.temp() for: the ping-pong copy, then the histograms and counts
// (portable) or the onesweep_meta buffer (histograms, pass counters, first status words) and the
// second status buffer (onesweep, with every pass run).
std::uint64_t radix_temp_bytes(const TempQuery& q) {
  if (q.n <= 1) return 0;
  if (single_tile_for(q).threads != 0 || radix_single_group_fits(q)) return 0;
  const std::uint64_t ks = key_size(q.type);
  const auto num_passes = static_cast<std::uint32_t>((ks * 8 + kRadixBits - 1) / kRadixBits);
  std::uint64_t total = temp_request_bytes(q.n * ks) + (q.value_bytes ? temp_request_bytes(q.n * q.value_bytes) : 0);
  if (use_onesweep(q)) {
    const OnesweepPolicy op = onesweep_policy(q);
    const std::uint64_t tiles = ceil_div(q.n, std::uint64_t(op.group) * op.items);
    total += temp_request_bytes(onesweep_meta(num_passes, tiles).bytes);
    if (num_passes > 1 && onesweep_status_pingpong()) total += temp_request_bytes(tiles * kRadix * 4);
  } else {
    const PortablePolicy pp = portable_policy(q);
    const auto& desc = q.device.description();
    const Plan plan = plan_spans(q.n, std::uint64_t(pp.group) * pp.items,
                                 std::uint64_t(std::max(1u, desc.compute_units)) * pp.groups_per_compute_unit);
    total += temp_request_bytes(radix_hist_bytes(num_passes)) + temp_request_bytes(std::uint64_t(kRadix) * plan.groups * 8);
  }
  return total;
}

}  // namespace gpusort::algo
