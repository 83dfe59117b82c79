#pragma once
// Radix sort policy (after CUB's dispatch_radix_sort.cuh): which path a sort takes, the tile shapes
// and kernel switches of each path, the -D list a path's program is built with, and the device
// temporaries it asks for. One chooser that reads the device's tuning row (radix_tuning.hpp), one
// layout for the sort and its size query, and one override seam for tests and gpusort-bench (no
// environment knobs). Internal: not part of the public API.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpusort/context.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "algorithms/radix_tuning.hpp"

namespace gpusort::algo {

constexpr std::uint32_t kRadixBits = 8;  // digit width of the multi-pass paths
constexpr std::uint32_t kRadix = 1u << kRadixBits;
constexpr std::uint64_t kOnesweepMaxN = (1ull << 30) - 1;  // look-back status words carry 30-bit counts
constexpr std::uint64_t kOnesweepPortion = 1ull << 29;       // larger n: launches of at most this many keys

// Whole tiles per group: group g owns keys [g * span, (g + 1) * span).
struct RadixSpans {
  std::uint64_t groups = 1;
  std::uint64_t span = 0;
};
RadixSpans plan_spans(std::uint64_t n, std::uint64_t tile, std::uint64_t max_groups);

// CUDA, small n: one block sorts everything in one launch (kernels/radix_single_tile.h,
// radix_single_tile_<threads>_<items>; up to the network's caps (RadixTuning::bitonic_caps, e.g. 4096
// keys of up to 4 bytes, 2048 of 8 bytes, 512 pairs with keys of up to 4 bytes) the bitonic network
// of kernels/radix_small_bitonic.h, radix_small_bitonic_<bitonic_log2>, 4 elements per thread).
// threads == 0: the path does not apply.
struct SingleTilePolicy {
  std::uint32_t threads = 0, items = 0;
  std::uint32_t bitonic_log2 = 0;  // > 0: the network over 2^bitonic_log2 elements
  std::uint64_t tile() const { return std::uint64_t(threads) * items; }
};

// Small n elsewhere: one work-group sorts in local memory (kernels/radix_single_group.cl).
// group == 0 or max_n == 0: the path does not apply.
struct SingleGroupPolicy {
  std::uint32_t bits = 4;  // digit width: 16 counters per work-item
  std::uint32_t group = 0;
  std::uint64_t max_n = 0;  // the largest n whose local memory fits (and <= the cap)
};

// NVIDIA GPUs: one radix_onesweep launch per pass (kernels/radix_onesweep.cl); on CUDA above
// kOnesweepMaxN, one per pass and portion of `portion` keys (64-bit positions, per-portion offsets).
// Under NVIDIA's OpenCL (`opencl`): n <= kOnesweepMaxN only; the histogram, pass counters and status
// words in buffers of their own (kernels ran 25-55x slower on views there: views_at_full_speed), none
// of the cp.async switches (snapshot, packed pairs), tiles and histogram copies within the device's
// local memory (48 KiB; pairs that no longer fit beside the keys are staged after them), and the
// register cap __launch_bounds__ gives CUDA passed as a build option (GS_MAX_REGISTERS).
struct OnesweepPolicy {
  std::uint32_t group = 256;     // threads per block: RADIX (one look-back digit per thread)
  std::uint32_t items = 16;      // keys per thread: a tile is group x items keys
  std::uint32_t min_blocks = 4;  // blocks per SM that __launch_bounds__ keeps registers for
  bool split_stage = false;      // values staged beside the keys (ONESWEEP_SPLIT_STAGE)
  bool recompute_digit = false;  // the scatter recomputes digits (ONESWEEP_RECOMPUTE_DIGIT)
  bool packed_pairs = false;     // 4+4-byte pairs packed between the first and last pass (values in registers)
  bool uniform_count = false;    // count a warp's item once where all lanes share its digit (RADIX_UNIFORM_COUNT)
  // CUDA: the warp match's bit tests against immediates (RADIX_MATCH_IMMEDIATE); 2: tests only, the
  // build of that form fails (as ptxas's did on some of its forms), to exercise the driver's fallback
  std::uint32_t match_immediate = 0;
  std::uint32_t snapshot = 0;    // look-back snapshot of W predecessors (ONESWEEP_LOOKBACK_SNAPSHOT)
  std::uint32_t hist_group = 256;
  std::uint32_t hist_copies = 32;            // radix_histogram_lanes' counter copies (RADIX_HIST_COPIES; 8-32)
  RadixSpans hist_spans;                     // radix_histogram_lanes' groups (u16 lane counters: spans < 2^19)
  std::uint64_t no_skip_max_n = 1ull << 22;  // up to here no histogram read-back: every pass runs
  std::uint64_t portion = 0;                 // keys per launch, a multiple of 16 tiles; 0: the whole n
  // CUDA: each pass a programmatic dependent launch of the kernel before it (rt::Launch::overlap_previous),
  // which lets it start from its blocks' exit, or with early_trigger from before their scatter
  // (and the histogram's from before its reduction; ONESWEEP_ALLOW_NEXT). early_trigger by default
  // except where a pass is one wave over more than half the SMs (radix_policy.cpp, early_trigger_rule)
  bool overlap_passes = false;
  bool early_trigger = false;
  bool opencl = false;                       // NVIDIA's OpenCL (above)
  std::uint32_t max_registers = 0;           // OpenCL: registers per work-item for min_blocks blocks per SM
  std::uint64_t tile() const { return std::uint64_t(group) * items; }
  std::uint64_t portions(std::uint64_t n) const { return portion ? (n + portion - 1) / portion : 1; }
};

// Everywhere else: count + scan + scatter per pass (kernels/radix_passes.cl), in the tuning row's
// shape. Group and items shrink to fit local memory.
struct PortablePolicy {
  std::uint32_t group = 64;                   // work-items per group
  std::uint32_t items = 16;                   // keys per work-item per tile
  std::uint32_t groups_per_compute_unit = 8;  // 2 on CPUs
  bool group_digit_scan = false;              // GPUs: a tile's digit starts scanned by the group (RADIX_GROUP_DIGIT_SCAN)
  bool warp_rank = false;  // NVIDIA GPUs: tiles ranked with warp votes, not split rounds (RADIX_WARP_RANK)
  RadixSpans spans;
  std::uint64_t tile() const { return std::uint64_t(group) * items; }
};
// Other GPUs (and NVIDIA's with the override), n < 2^30: the onesweep design without sub-group
// operations or forward-progress assumptions, one radix_onesweep_portable launch per pass (kernels/radix_onesweep_portable.cl) over
// tiles of the portable shape (PortablePolicy's group x items). By default on GPUs; CPUs (PoCL) keep
// the count + scan + scatter passes. use == false: the path does not apply.
struct PortableOnesweepPolicy {
  bool use = false;
  std::uint32_t spin_limit = 4096;  // unpublished reads of one predecessor before counting its keys
  bool fallback_only = false;       // tests: every predecessor counted from its keys
  std::uint32_t lookback_window = 1;  // predecessors' words read at once by a look-back step (keys: 4)
};

// CUDA, large n (kernels/radix_segments.cl): the onesweep passes sort by the top 16 bits only (two
// passes), then radix_segment_tiles_256_<items> sorts each of the 65536 segments of keys that share
// them by the rest, one 256-thread block per segment in shared memory. Keys of 32 or 64 bits, n <=
// kOnesweepMaxN; the driver takes the ordinary passes instead where the histogram's top digits are
// skewed or a segment outgrows the tile. threads == 0: not taken.
struct SegmentPolicy {
  std::uint32_t threads = 0, items = 0;
  std::uint64_t skew_percent = 0;  // kSegmentTopSkewPercent (tests and the sanitizer run: the override's)
  // The tiles' passes (radix_single_tile.h): false: count each digit with shared atomics, scan, then
  // rank; true: rank first, then scan, the first pass of keys alone ranked by shared atomics
  // (RADIX_SEGMENT_RANK_FIRST)
  bool rank_first = false;
  std::uint32_t min_blocks = 0;    // the tiles' kernels' blocks per SM for __launch_bounds__ (0: none)
  // 4-byte integer keys with 4-byte values in packed onesweep passes: the last pass leaves the pairs
  // interleaved, one 8-byte store each, and the tiles unpack them (kernels/radix_interleaved_pairs.h);
  // a tile then also holds up to kSegmentInterleavedLead positions before its segment
  bool interleaved = false;
  std::uint64_t tile() const { return std::uint64_t(threads) * items; }
};
constexpr std::uint32_t kSegmentBits = 16;  // the top bits the passes sort: 2^16 segments
constexpr std::uint64_t kSegmentInterleavedLead = 31;  // radix_segments.cl: first % 32 positions of padding
// The segments are taken only where no digit of the top two has more keys than this share of an even
// spread (n / 256), in per cent: skewed top digits make large segments (entropy-reduced keys, small
// integers), which the ordinary passes sort without the read-backs. Uniform keys at 2^28 stay within
// about 0.5%.
constexpr std::uint64_t kSegmentTopSkewPercent = 125;
// The radix_segments.cl kernels' u32 words: the largest segment's size, then the segments' starts and n;
// with interleaved pairs kSegmentEndWords more (each segment's 32 first and 32 last pairs, 2 words each).
constexpr std::uint64_t kSegmentWords = 1 + (std::uint64_t(1) << kSegmentBits) + 1;
constexpr std::uint64_t kSegmentEndWords = std::uint64_t(128) << kSegmentBits;
// radix_segment_unpack's blocks (its __launch_bounds__): one thread per pair
constexpr std::uint32_t kSegmentUnpackGroup = 256;
// segments: a program of their own (radix_segments.cl), not a path a sort takes on its own
enum class RadixPath { single_tile, single_group, onesweep, portable_onesweep, portable, segments };

struct RadixPolicy {
  const RadixTuning* tuning = nullptr;  // the device's row the values came from (null: built by hand)
  RadixPath path = RadixPath::portable;
  key_type type = key_type::u32;
  std::size_t value_bytes = 0;
  std::uint64_t n = 0;
  std::uint32_t passes = 4;  // 8-bit digit passes of the key type
  SingleTilePolicy single_tile;
  SingleGroupPolicy single_group;  // filled whenever the device has the path (the tests call it directly)
  OnesweepPolicy onesweep;         // filled on NVIDIA GPUs (the single tile's program takes its defines)
  SegmentPolicy segments;          // CUDA onesweep path: the low digits per segment
  PortablePolicy portable;
  PortableOnesweepPolicy portable_onesweep;  // filled on devices without the CUDA onesweep path
};

// Tests and gpusort-bench only: every field that is set replaces the chooser's value (and only
// where the path allows it: e.g. packed pairs stay 4-byte keys with 4-byte values staged apart).
struct RadixPolicyOverride {
  std::optional<std::uint32_t> items;              // onesweep keys per thread (options.items_per_thread wins)
  std::optional<std::uint32_t> min_blocks;         // onesweep blocks per SM for __launch_bounds__
  std::optional<bool> split_stage;                 // pairs: values staged beside the keys
  std::optional<bool> recompute_digit;             // integer keys staged apart from values
  std::optional<bool> packed_pairs;                // 4-byte keys with 4-byte values, at every n
  std::optional<bool> uniform_count;               // onesweep: warp-uniform digits counted once
  std::optional<std::uint32_t> match_immediate;    // onesweep, CUDA: the match's bit tests against immediates (2: tests, a failing build)
  std::optional<std::uint32_t> snapshot;           // W = 0..64
  std::optional<std::uint32_t> hist_copies;        // 16 or 32
  std::optional<std::uint64_t> no_skip_max_n;      // onesweep: every pass runs up to this n
  std::optional<std::uint64_t> portion;            // onesweep: keys per launch at any n (rounded to tiles)
  std::optional<bool> segments;                    // onesweep, CUDA: the low digits per segment (radix_segments.cl)
  std::optional<std::uint64_t> segment_skew_percent;  // ... taken unless a top digit holds more (% of n / 256)
  std::optional<bool> segment_rank_first;          // ... the tiles' passes (SegmentPolicy::rank_first)
  std::optional<std::uint32_t> segment_min_blocks; // ... the tiles' kernels' blocks per SM (__launch_bounds__)
  std::optional<bool> segment_interleaved;         // ... 4-byte pairs left interleaved by packed passes
  std::optional<bool> overlap_passes;              // onesweep, CUDA: programmatic dependent launch of the passes
  std::optional<bool> early_trigger;               // ... letting the next pass start before the scatter
  std::optional<std::uint64_t> single_tile_max;    // cap on the single tile's n (0: off)
  std::optional<std::uint64_t> bitonic_max;        // the bitonic network's largest n instead of its default caps (0: off; <= 4096)
  std::optional<std::uint64_t> single_group_max;   // cap on the single work-group's n (0: off)
  std::optional<std::uint32_t> single_group_size;  // work-items (a power of two >= 16)
  std::optional<bool> portable_onesweep;           // OpenCL, n < 2^30: onesweep passes (1) or count+scan+scatter (0);
                                                   // set under NVIDIA's OpenCL: these portable passes, not
                                                   // radix_onesweep.cl's (CUDA always runs radix_onesweep.cl)
  std::optional<std::uint32_t> spin_limit;         // portable onesweep: waits before the fallback counts
  std::optional<bool> fallback_only;               // portable onesweep: the fallback counts every predecessor
  std::optional<std::uint32_t> lookback_window;    // portable onesweep: words per look-back step (1-32)
  std::optional<bool> warp_rank;                   // portable paths: warp votes (1, NVIDIA only) or split rounds (0)
};
// The process-wide override (none by default). Not synchronised: set it before sorting.
void set_radix_policy_override(const RadixPolicyOverride& o);
const RadixPolicyOverride& radix_policy_override();
// Sets an override for one scope and restores the previous one.
class ScopedRadixPolicyOverride {
 public:
  explicit ScopedRadixPolicyOverride(const RadixPolicyOverride& o);
  ~ScopedRadixPolicyOverride();
  ScopedRadixPolicyOverride(const ScopedRadixPolicyOverride&) = delete;
  ScopedRadixPolicyOverride& operator=(const ScopedRadixPolicyOverride&) = delete;

 private:
  RadixPolicyOverride saved_;
};
// "items=24,min_blocks=3,packed_pairs=1" (field names; booleans 0/1): gpusort-bench --radix-policy.
// Throws Error(invalid_argument) on an unknown name or a bad value.
RadixPolicyOverride parse_radix_policy_override(std::string_view spec);

// Whether an n-key sort on `desc` runs radix_onesweep.cl under NVIDIA's OpenCL (inline PTX for the
// warp operations; n <= kOnesweepMaxN), unless the override asks for the portable passes.
bool onesweep_on_nvidia_opencl(const DeviceDescription& desc, std::uint64_t n);

// The policy for one sort. options.work_group_size is taken as valid (the driver checks it first:
// checked_group_size).
RadixPolicy choose_radix_policy(const DeviceDescription& desc, key_type type, std::size_t value_bytes, std::uint64_t n,
                                const SortOptions& options, const RadixPolicyOverride& o = radix_policy_override());
// The single work-group part alone (the driver called directly, and its capacity).
SingleGroupPolicy choose_single_group_policy(const DeviceDescription& desc, key_type type, std::size_t value_bytes,
                                             const SortOptions& options,
                                             const RadixPolicyOverride& o = radix_policy_override());
// The onesweep part alone (no device needed: the NVRTC build matrix uses it).
OnesweepPolicy choose_onesweep_policy(const RadixTuning& tuning, key_type type, std::size_t value_bytes, std::uint64_t n,
                                      const SortOptions& options,
                                      const RadixPolicyOverride& o = radix_policy_override());

// The histogram (every pass's digits and the -0/NaN flag word) rounded up to 4096 bytes: the
// onesweep meta buffer's first part, and with portions the stride of their offsets blocks.
std::uint64_t onesweep_block_bytes(std::uint32_t passes);

// The program a path runs and its -D list: radix_single_tile.cl, radix_onesweep.cl (packed_in for
// the passes that read packed pairs, packed_out 1 for those that write them, 2 for the segments' last
// pass that writes them interleaved), radix_onesweep_portable.cl, radix_passes.cl, radix_single_group.cl.
const char* radix_program_file(RadixPath path);
std::vector<std::string> to_defines(const RadixPolicy& p, RadixPath path, bool packed_in = false,
                                    std::uint32_t packed_out = 0);

// Device temporaries radix_sort asks job.temp() for, in request order (0: none), and the parts of
// the onesweep meta buffer: the histograms, the pass counters and the first pass's look-back status
// words share one buffer that one fill zeroes (three fills were three launches, a few microseconds of
// a 2^16-key sort); views start at multiples of 4096 bytes (runtime rule).
struct RadixTempLayout {
  std::uint64_t keys = 0, values = 0;  // the ping-pong copies
  std::uint64_t meta = 0;  // portable: the histograms; onesweep: histograms, pass counters, first status words
  std::uint64_t hist = 0;  // histograms (+ the float flag word) at offset 0 of meta
  std::uint64_t counters_offset = 0, status_offset = 0, status_bytes = 0;  // onesweep, inside meta
  // onesweep with portions: portions + 1 blocks of 64-bit digit offsets, block_stride bytes apart from
  // bases_offset (radix_portion_bases, radix_onesweep); strides keep views 4096-aligned
  std::uint64_t block_stride = 0, bases_offset = 0;
  std::uint64_t status2 = 0;    // onesweep, portable onesweep: the second status buffer (more than one pass)
  std::uint64_t counts = 0;     // portable: per-group digit counts
  // portable onesweep and onesweep under OpenCL: the pass counters and the first status words,
  // buffers of their own (views ran 25-55x slower on NVIDIA's OpenCL: views_at_full_speed)
  std::uint64_t counters = 0, status = 0;
  std::uint64_t segments = 0;   // CUDA segments: kSegmentWords u32 words (+ kSegmentEndWords: interleaved)
  std::uint64_t total() const;  // what radix_temp_bytes reports: every request at most once
};
RadixTempLayout radix_temp_layout(const RadixPolicy& p);

// Dynamic local memory per launch.
std::uint64_t single_tile_local_bytes(const SingleTilePolicy& s, std::size_t key_bytes, std::size_t value_bytes);
std::uint64_t single_group_slots(std::uint64_t n);  // elements per local buffer (SG_PAD's spare slots)
std::uint64_t single_group_local_bytes(std::uint64_t n, std::size_t key_bytes, std::size_t value_bytes,
                                       std::uint32_t group);
std::uint64_t onesweep_hist_local_bytes(const RadixPolicy& p);
std::uint64_t onesweep_pass_local_bytes(const RadixPolicy& p);
// radix_onesweep's own local arrays (digit bases, warp sums, tile id), beside the dynamic part.
std::uint64_t onesweep_pass_static_local_bytes(const OnesweepPolicy& os);

// Every define set the onesweep driver builds radix_onesweep.cl with on the CUDA device desc for a
// key type, value width and n, at the default options (the NVRTC build-matrix test compiles each:
// ptxas failures show up without a GPU).
std::vector<std::vector<std::string>> radix_onesweep_program_defines(const DeviceDescription& desc, key_type type,
                                                                     std::size_t value_bytes, std::uint64_t n);
// The define set the single-tile path builds radix_single_tile.cl with, and the segments'
// radix_segments.cl with the register cap of the widths' segments_from row, its form of the passes
// or the other, and its interleaved pairs or not (the NVRTC build test compiles them).
std::vector<std::string> radix_single_tile_program_defines(const RadixTuning& tuning, key_type type,
                                                           std::size_t value_bytes);
std::vector<std::string> radix_segments_program_defines(const RadixTuning& tuning, key_type type, std::size_t value_bytes,
                                                        std::optional<bool> rank_first = std::nullopt,
                                                        std::optional<bool> interleaved = std::nullopt);

// What a policy runs, one line each, for `gpusort plan`: the tuning row (name, the device class it
// was measured on, what it is), the path and its program, then the chosen shapes and switches.
std::vector<std::string> describe(const RadixPolicy& p);

}  // namespace gpusort::algo
