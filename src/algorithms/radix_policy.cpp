// Radix sort policy: the measured size rules as tables, the chooser, the -D lists and the layout of
// the temporaries (radix_policy.hpp). Timings: H200, uniform keys, 2026-11-21 to 2026-11-27
// (docs/algorithms/radix.md; rounds in docs/lab/radix-tuning.md).
#include "algorithms/radix_policy.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <type_traits>
#include <utility>

#include "algorithms/algorithm.hpp"
#include "gpusort/errors.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {
namespace {

constexpr std::uint64_t kAny = ~0ull;

// ---- the tables -------------------------------------------------------------------------------

// Onesweep keys per thread: the first row that matches key bytes, value bytes, n (and, where set,
// packed pairs) wins.
struct ItemsRow {
  std::size_t key_min, key_max, value_min, value_max;
  std::uint64_t n_from, n_below;
  bool packed_only;
  std::uint32_t items;
  const char* measured;
};
constexpr ItemsRow kOnesweepItems[] = {
    {4, 4, 4, 4, 1ull << 22, kAny, true, 24,
     "u32/u32 packed, values in registers (ptxas spills 22 words at 28 items, 4 at 24): 2^24 0.543-0.546 ms "
     "against 0.588-0.589 at 28 items, 2^25 0.992-0.995 against 1.058-1.062, 2^28 7.21-7.26 against 7.60-7.63 "
     "(eighteenth round)"},
    {4, 4, 4, 4, 1ull << 22, 1ull << 24, false, 24,
     "u32/u32 unpacked, more tiles for the last wave: 2^22 0.215 -> 0.200 ms, 2^23 0.368 -> 0.357 (eighth round, 9a21f6a)"},
    {1, 4, 1, 4, 0, kAny, false, 32,
     "u32/u32 2^28: 24 items 8.08 ms, 28 7.86, 32 7.73, 40 (2 blocks/SM) 7.78 (sixth round); "
     "2^21 / 2^20 0.108 / 0.076 ms at 32 items vs 0.112 / 0.080 at 24 (eighth round, 9a21f6a)"},
    {1, 4, 0, 0, 0, kAny, false, 28,
     "u32 keys 2^28: 12 items 10.1 ms, 16 9.2, 20 8.5, 24 8.4; early-counts ranking 24 7.56, 28 7.38; "
     "sixth round 28 4.90, 32 5.14, 40 5.15"},
    {8, 8, 8, 8, 1ull << 26, kAny, false, 28,
     "8-byte keys with 8-byte values staged after the keys, 2 blocks/SM, with the immediates' match: u64/u64 "
     "2^28 24.07-24.22 ms at 24 items, 23.57-23.58 at 28, 24.73-24.78 at 32; 2^26 6.06-6.08 / 6.02-6.03 / "
     "6.24-6.26; 2^24 level (twenty-first round; f64/u64 shares the layout, not timed)"},
    {1, 8, 1, 8, 1ull << 22, kAny, false, 24,
     "values staged after the keys, 2 blocks/SM: u64/u64 2^28 16 items (3 blocks/SM) 26.04 ms, 24 24.56"},
    {8, 8, 0, 0, 1ull << 24, kAny, false, 24,
     "8-byte keys alone at 3 blocks/SM (min_blocks_rule), with the immediates' match: u64 2^28 13.62-13.65 ms "
     "at 16 items (4 blocks/SM), 13.10 at 20, 12.49 at 24, 14.45-14.47 at 28, 13.47-13.51 at 32 (2 "
     "blocks/SM), 14.33-14.36 at 24 and 4 blocks/SM; 2^26 3.49 / 3.20 at 24; 2^24 0.953-0.964 / "
     "0.903-0.909; 2^22 level; f64 2^28 15.08-15.10 / 14.12-14.15, 2^24 1.050-1.053 / 1.027-1.034, "
     "2^22 0.312-0.323 / 0.331-0.339 (twenty-first round)"},
    {1, 8, 0, 16, 0, kAny, false, 16,
     "registers limit 64-bit keys and wide values; u64/u64 at 2^12..2^18: bigger tiles 15-25% slower than 16 "
     "items at 3 blocks/SM (fewer tiles than SM slots)"},
};

// Small n: a row's items shrink, in steps of 4 down to 4, to the largest that still gives this many
// tiles (256 threads each): one block's serial work is most of a pass there. H200, 2026-11-27, median
// us, default items / 4 / 8 / 12 / 16 from `--radix-policy items=K`:
//   - u32 2^16 51.5 / 40.1 / 43.4 / 41.5 / 46.2, 2^17 52 / 47.5 / 44.5, 2^18 52.7 / 58.3 / 50.3 /
//     47.8 / 50.2, 2^20 65.9 / 111.5 / 81.7 / 77.2 / 71.4; u64 2^17 77 / 81 / 73, 2^18 84.3 / 99.5 /
//     84.6 / 84.3 / 85.8: keys alone want 64 tiles;
//   - u64/u64 2^13 97 / 59-62, 2^16 108.1 / 76.8 / 84.6 / 92.5 / 106.4, 2^18 118.1 / 114.8 / 105.8 /
//     109.3 / 121.3, 2^20 186.8 / 253.3 / 207.2 / 190.7 / 181.4; u32/u32 2^14 54-57 / 37-39, 2^18
//     62.2 / 62.0 / 53.6 / 52.0 / 56.0: pairs want 128.
constexpr std::uint64_t kMinTilesKeys = 64, kMinTilesPairs = 128;

// Packed pairs (4-byte keys with 4-byte values staged apart) from this n on. Below, the packed loads
// hold the values in shared memory through the ranking (one more barrier per tile) and lose.
struct PackedRow {
  bool float_keys;
  std::uint64_t n_from;
  const char* measured;
};
constexpr PackedRow kPackedFrom[] = {
    {false, 1ull << 22,
     "values parked in shared memory: u32/u32 2^28 7.61 -> 7.19 ms, 2^26 2.03 -> 1.92, 2^24 0.600 -> 0.595; "
     "slower below: 2^23 0.364 -> 0.373 (eighth round, 54752d3). Values in registers at 24 items, against the "
     "parked form from 2^24 and unpacked below: 2^22 0.188-0.192 / 0.190-0.195 ms, 2^23 0.318-0.319 / "
     "0.331-0.337, 2^24 0.543-0.546 / 0.578-0.582, 2^25 0.992-0.995 / 1.025-1.030, 2^28 7.21-7.26 / "
     "7.28-7.29 (eighteenth round)"},
    {true, 1ull << 24,
     "values parked: f32/u32 (staged digit bytes, ptxas spills 52 bytes packed) 2^28 8.04 -> 7.74 ms, 2^26 2.10 "
     "either way, 2^24 0.613 -> 0.67-0.69 (eighth round, 0da97b9). Values in registers at 24 items, against "
     "unpacked below 2^26 and the parked form at 28 items from 2^26: 2^23 0.346-0.349 / 0.341-0.345 ms, 2^24 "
     "0.570-0.574 / 0.585-0.589, 2^25 1.018-1.031 / 1.078-1.082, 2^26 1.927-1.944 / 2.040-2.055, 2^28 7.37-7.39 "
     "/ 7.66-7.67 (eighteenth round)"},
};

// Single tile shapes, smallest first: the smallest tile that holds n (the work is per tile; more
// threads hide more latency in the one block), among those whose keys and values fit max_regs
// registers per thread (items x registers per key + value; kernels/radix_single_tile.h has the same rule).
struct ShapeRow {
  std::uint32_t threads, items, max_regs;
};
constexpr ShapeRow kSingleTileShapes[] = {{256, 4, ~0u}, {512, 4, 32}, {512, 8, 32}, {1024, 8, 16}, {1024, 16, 16}};
// 4-byte keys alone take the onesweep passes above this n, not the 1024 x 16 tile. H200, 2026-11-27, median
// us, single tile / onesweep (`single_tile_max=8192`), two processes each: u32 9216 38.2-38.6 / 29.2-30.7,
// 12288 38.7-38.9 / 29.8-30.1, 16384 39.8-39.9 / 31.6-32.0; f32 9216 40.8-41.2 / 30.0-30.5, 16384
// 41.9-42.8 / 31.6-32.9 (eighteenth round). Other key widths and pairs were not measured there.
constexpr std::uint64_t kSingleTileMaxKeys4 = 8192;

// Rules with one measured fact each (used below):
// - values staged beside the keys when key + value bytes <= 8: one barrier before a joint scatter and
//   still 3 blocks per SM; on CUDA also 8-byte keys with 8-byte values from 2^21 to below 2^24 keys
//   (kWidePairsBeside), at 2 blocks per SM;
// - the scatter recomputes digits of integer keys staged apart (64-bit keys or pairs): H200 2^28 u64
//   keys 13.88 vs 14.07 ms, u32/u32 7.85 vs 7.89; u32 keys 5.05 vs 4.90 (their ranking is ALU-bound);
// - look-back snapshot W = 4 for 64-bit keys only: u64 keys 13.87 -> 13.58 and 13.79 -> 13.43 ms;
//   u32 keys, u32/u32 and u64/u64 no gain or slower (seventh round);
// - histogram counter copies: 32 up to four passes, 16 beyond (64 KiB of local memory either way);
// - no histogram read-back up to 2^22 keys: the blocking read-back costs ~0.02 ms, a pass over 2^22
//   u32 keys ~0.045 ms (u32 2^22 0.214 -> 0.196 ms, u32/u32 0.254 -> 0.239, fifth round, 25b01a6);
// - single work-group path up to 4096 keys (GPU: 256 work-items; PoCL: 16, measured 16 < 32 < 64 <
//   256 at n = 1024..16384);
// - CUDA, small n: the bitonic network, not the radix single tile, up to kBitonicCaps' sizes (below)
//   (H200, 2026-11-27: u32 2^12 12.6-15.2 us against 17.7-20.4, 2^10 7.4-7.7 against 11.1-13.0;
//   the kernel 8.3 us against 13.3 under Nsight Compute).
constexpr std::uint32_t kSnapshotW = 4;
// 8-byte keys with 8-byte values staged beside their keys (CUDA; 16 bytes per key, so 2 blocks per
// SM) in this range of n. H200, 2026-11-27, median ms, staged after the keys / beside them at 2 blocks
// per SM, two processes each: u64/u64 2^21 (16 items) 0.317-0.328 / 0.286-0.287, 2^22 (24 items)
// 0.546-0.557 / 0.515-0.518, 2^23 0.932-0.937 / 0.903-0.911, 2^24 1.699-1.718 / 1.702-1.716, 2^25
// 3.226-3.230 / 3.269-3.276, 2^28 24.39-24.47 / 25.62-25.66 (eighteenth round); f64/u64 (float keys
// stage a digit byte per key as well) 2^21 0.319-0.320 / 0.288-0.292, 2^22 0.563-0.566 / 0.532-0.536,
// 2^23 0.959-0.967 / 0.943-0.945 (nineteenth round).
constexpr std::uint64_t kWidePairsBesideFrom = 1ull << 21, kWidePairsBesideBelow = 1ull << 24;
// 8-byte keys with 8-byte values staged after their keys (no full-stripe path elsewhere in their
// pass), from this n: the early counts take full stripes without validity tests and count a warp's
// item once where every lane holds its digit (RADIX_UNIFORM_COUNT). H200, 2026-11-27, median ms,
// uniform_count=1 / 0, two processes each (nineteenth round):
//   - u64/u64 2^24 uniform 1.632-1.633 / 1.693-1.696, sorted 1.635-1.653 / 1.701-1.713, entropy
//     1.553-1.579 / 1.632-1.634; 2^26 uniform 6.043-6.065 / 6.248-6.259, sorted 6.090-6.128 /
//     6.299-6.340; 2^28 uniform 24.11-24.25 / 24.43, sorted 24.23-24.24 / 24.67-24.68, entropy
//     23.44-23.77 / 23.35;
//   - f64/u64 2^24 uniform 1.690-1.691 / 1.749-1.756, sorted 1.676-1.682 / 1.752-1.760; 2^26 uniform
//     6.233-6.237 / 6.406-6.434, sorted 6.237-6.251 / 6.431-6.435.
// Elsewhere it gained nothing or lost: u32/u32 2^24 0.533-0.556 / 0.524-0.538; u32 and u64 keys
// (sorted included) within 1%.
constexpr std::uint64_t kUniformCountWidePairsFrom = 1ull << 24;
// 4-byte integer keys alone, from this n: the scatter recomputes each staged key's digit instead of
// staging a digit byte beside it (two shared-memory accesses per key fewer, a shift and a mask
// more). Once the warp match had become cheaper (RADIX_MATCH_IMMEDIATE) that won: H200, 2026-11-27,
// median ms, recompute_digit=1 / 0, alternated processes (twenty-first round): u32 2^28
// 4.565-4.571 / 4.623-4.643, 2^24 0.358-0.370 / 0.365-0.372. (The sixth round, with the dearer
// match, measured it slower: 5.05 / 4.90.)
constexpr std::uint64_t kRecomputeKeys4From = 1ull << 24;
// 4-byte keys alone in this range of n: the histogram keeps 16 counter copies (32 KiB per block, so
// more blocks per SM, each zeroing and reducing half as much) instead of 32. H200, 2026-11-27, median
// us, 16 / 32 copies, two processes each (twenty-second round): u32 2^21 82.2-85.3 / 86.1-86.6, 2^22
// 128.0-130.0 / 129.7-132.2, 2^23 208.8-209.7 / 213.8-217.0; f32 2^21 85.5-89.5 / 89.3-91.6, 2^23
// 224.8-226.2 / 227.5-229.4; level at 2^20 and 2^24-2^26, slower at 2^28 (f32 4.856 / 4.792-4.813 ms);
// pairs mixed (u32/u32 2^22 186.1-188.1 / 180.7-181.5), so they keep 32.
constexpr std::uint64_t kHistCopies16Keys4From = 1ull << 21, kHistCopies16Keys4Below = 1ull << 24;
// The all-digit histogram's blocks per SM (more where a span would pass the u16 counters' 2^19 keys).
// H200, 2026-11-27, u32 and u64 at 2^20-2^28 (twenty-second round): 3, 6, and 7 with 16 copies all
// within the processes' spread of this default (u32 2^24 352.4-354.9 us at 3 against 358.9-361.3,
// 2^28 4.616-4.638 ms against 4.571-4.573).
constexpr std::uint32_t kHistBlocksPerSm = 8;
// CUDA: every onesweep pass is a programmatic dependent launch of the kernel before it (its blocks
// start while that kernel's last ones finish, and wait for it in the kernel). The blocks of a pass
// (and of the histogram) let the next one start from before their scatter, except where a pass is
// one wave that fills more than half the SMs (more tiles than SMs / 2, at most SMs x min_blocks):
// there they let it start from their exit. The waiting blocks of the next pass then take the SMs'
// free slots beside the wave, and it runs slower (the placement is the likely cause, not profiled).
// H200 (132 SMs), 2026-11-27, median us, two processes each, overlap off / from the blocks' exit /
// from before the scatter / from the blocks' start (not kept):
//   - up to 64 tiles: u32 2^15 38.8 / 38.2-40.6 / 34.6-36.3 / 35.5-37.4, 2^18 47.7-50.0 / 45.1-49.4 /
//     43.5-44.2 / 45.1-46.9; u32/u32 2^15 40.2-42.4 / 39.8-40.5 / 35.6-36.2 / 35.3-37.0;
//   - one wave of 128-293 tiles: u32/u32 2^20 (128 tiles) 76.6-79.6 / 69.6-73.5 / 85.2-86.1 /
//     89.9-90.5, u32 2^21 (293 of 528 slots) 89.2-89.8 / 86.9-89.0 / 93.0-93.8 / 96.1; u64/u64 2^19
//     (128) 134.3-138.9 / 125.1-127.5 / 138.0-138.6 / 139.8-140.3;
//   - more than one wave, exit / before the scatter (another measurement): u64/u64 2^21 (512 tiles
//     of 396 slots) 332.6-334.3 / 319.5-320.1, u32/u32 2^23 342.3-347.8 / 335.8-337.1, u32 2^22
//     132.6-133.6 / 129.3-133.0, u32 2^25 686.2-691.7 / 683.1-685.1, u64/u64 2^23 940.3-948.3 /
//     946.7-947.3; against off: u32 2^25 706.3 / 685.2-686.4 (first measurement).
bool early_trigger_rule(std::uint64_t tiles, std::uint32_t compute_units, std::uint32_t min_blocks) {
  return tiles <= compute_units / 2 || tiles > std::uint64_t(compute_units) * min_blocks;
}
constexpr std::uint64_t kNoSkipMaxN = 1ull << 22;
constexpr std::uint64_t kSingleGroupMaxN = 4096;
constexpr std::uint32_t kBitonicMinLog2 = 7, kBitonicMaxLog2 = 12;  // radix_small_bitonic_7 .. _12

// The largest n (log2) the bitonic network takes by default, by key width and values; beyond it the
// radix single tile is faster (H200, 2026-11-27, two processes each, microseconds, network / tile):
//   - keys of up to 4 bytes: u32 2^12 13.1-15.3 / 18.7-19.1, f32 13.5-15.0 / 19.0-19.6;
//   - 8-byte keys: u64 2^11 16.9-19.2 / 22.1-22.7 but 2^12 31.2-32.0 / 28.5-29.1; f64 alike;
//   - pairs, (image, position) in 8 bytes: u32/u32 2^9 9.4-10.7 / 10.3-10.8, f32/u32 9.7-11.0 /
//     12.2-12.8, but 2^10 12.9-13.2 / 11.4-12.1;
struct BitonicCapRow {
  std::size_t key_bytes_max;
  bool values;
  std::uint32_t max_log2;  // 0: never
};
constexpr BitonicCapRow kBitonicCaps[] = {
    {4, false, 12},
    {8, false, 11},
    {4, true, 9},
};
// The default cap on n (0: the network never runs by default).
std::uint64_t bitonic_default_cap(key_type type, std::size_t vb) {
  const std::size_t ks = key_size(type);
  for (const BitonicCapRow& r : kBitonicCaps)
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

std::uint32_t min_blocks_rule(std::size_t ks, std::size_t vb, bool split, std::uint32_t items) {
  if (vb == 16 || (vb != 0 && !split && items > 16)) return 2;  // values staged after the keys: up to 128 registers
  if (split && ks + vb > 8) return 2;                            // 16 bytes per key beside each other (kWidePairsBeside)
  if (vb != 0 && (ks == 8 || items > 16)) return 3;
  if (ks == 8 && items > 16) return 3;  // 8-byte keys alone (kOnesweepItems)
  return 4;
}

// ---- the override seam ------------------------------------------------------------------------

RadixPolicyOverride g_override;

// The segments' tile shapes (kernels/radix_segments.cl instantiates each), smallest first: the first
// that holds a segment of n / 2^16 keys with room for uniform keys' spread (Poisson: 6 standard
// deviations and 64 keys more) and fits the device. by_default: false where only the override takes
// the shape (512 x 9: slower than 256 x 18 at 2^28, u32 4.53-4.63 against 4.32 ms, u32/u32 6.34-6.73
// against 6.00-6.05, lab notes thirtieth round; 512 x 18, from about 2^28.1 keys: not measured).
struct SegmentShapeRow {
  std::uint32_t threads, items;
  bool by_default;
};
constexpr SegmentShapeRow kSegmentShapes[] = {
    {256, 6, true}, {256, 10, true}, {256, 18, true}, {512, 9, false}, {512, 18, false}};
// Integer keys of these widths with values of these widths take the segments by default from n_from
// (while a measured shape holds them). H200, 2026-11-28, median ms, segments / ordinary passes
// (docs/lab/radix-tuning.md, twenty-ninth round; the last A/B of the defaults against segments=0,
// two processes each, CUB's best form beside):
//   - u32 2^28 4.34-4.35 / 4.47 (CUB 5.42); first A/B 2^26 1.46-1.48 / 1.19, 2^24 0.97 / 0.36;
//   - u32/u32 2^27 3.28-3.30 / 3.49-3.52 (CUB 3.72), 2^28 6.05-6.08 / 6.96-6.97 (CUB 7.41); first
//     A/B 2^26 1.86-1.90 / 1.81-1.82;
//   - u64 2^26 3.11-3.12 / 3.15-3.16 (CUB 4.19), 2^27 5.18-5.20 / 6.24-6.26, 2^28 9.30-9.34 / 12.26;
//     first A/B 2^24 2.35 / 0.88;
//   - u64/u64 2^26 4.22-4.24 / 5.97-5.99 (CUB 6.25), 2^27 7.22-7.24 / 11.83-11.84, 2^28 13.71-13.73 /
//     23.37-23.38, but 2^25 3.23-3.25 / 3.09-3.11.
// Float keys were not timed with the segments: the bench's (random finite bit patterns, Inf and NaN
// patterns remapped to +-0, so one top digit holds twice its share) fail the histogram check and take
// the ordinary passes (f32 2^28 4.78-4.83 / 4.76-4.78: the check's read-back). They keep the ordinary
// passes by default; the override takes them (Radix.CudaSegments sorts them). Entropy-reduced keys
// fail the check too and pay its read-back before the first pass: 2^28 u32 4.55-4.56 / 4.53, u32/u32
// 6.62-6.63 / 6.61. Other value widths were not measured.
// Each row also names the tiles' passes (SegmentPolicy::rank_form, min_blocks). 4-byte keys alone:
// rank first, the first pass ranked by shared atomics, at most 64 registers (4 blocks of 256 per SM):
// H200, 2026-11-28, 2^28 u32, median ms of two processes each, the tiles' kernel under Nsight Compute
// beside (docs/lab/radix-tuning.md, thirtieth round): 3.99 against 4.32 (form 0), 4.29-4.34 (form 2
// at 72 registers), 4.42 (form 1), 4.53-4.63 (512 x 9 tiles, any form); the kernel 1.45 ms against
// 1.79. For 4-byte pairs every other form was slower (2^28: 6.33-6.73 against 6.00-6.05 ms) and
// packed pairs level (packed, ranked first under the cap, 5.93-5.95 against the default's 5.95;
// packed, counted first, 6.08-6.13). u64 keys alone under the cap: 9.15-9.20 against 9.29-9.36 ms at
// 2^28 but 3.19 against 3.09-3.12 at 2^26; form 2 slower at both (9.71-9.88 at 2^28): their row keeps
// form 0 uncapped. Interleaved 4-byte pairs (SegmentPolicy::interleaved; b3e0708): u32/u32
// 2^28 5.64-5.68 against 5.95-6.02 ms unpacked by the last pass, 2^27 3.10-3.13 against 3.24-3.29
// (thirty-first round).
struct SegmentsFromRow {
  std::size_t key_bytes, value_bytes;
  std::uint64_t n_from;
  std::uint32_t rank_form, min_blocks;
  bool packed;       // integer keys only (radix_segments.cl's packed pairs)
  bool interleaved;  // where the onesweep passes pack the pairs (SegmentPolicy::interleaved)
};
constexpr SegmentsFromRow kSegmentsFrom[] = {{4, 0, 1ull << 28, 2, 4, false, false},
                                             {4, 4, 1ull << 27, 0, 0, false, true},
                                             {8, 0, 1ull << 26, 0, 0, false, false},
                                             {8, 8, 1ull << 26, 0, 0, false, false}};
const SegmentsFromRow* segments_row(key_type type, std::size_t vb) {
  for (const SegmentsFromRow& r : kSegmentsFrom)
    if (key_size(type) == r.key_bytes && vb == r.value_bytes) return &r;
  return nullptr;
}
// The tiles' passes of the widths' row (kSegmentRankForm, no cap, where there is none): the form and
// the register cap, as {rank_form, min_blocks}.
std::pair<std::uint32_t, std::uint32_t> segments_row_passes(key_type type, std::size_t vb) {
  const SegmentsFromRow* row = segments_row(type, vb);
  return row ? std::pair{row->rank_form, row->min_blocks} : std::pair{kSegmentRankForm, 0u};
}
bool segments_rule(key_type type, std::size_t vb, std::uint64_t n) {
  const SegmentsFromRow* r = segments_row(type, vb);
  return !is_float(type) && r && n >= r->n_from;
}
SegmentPolicy choose_segments(const DeviceDescription& desc, key_type type, std::size_t vb, std::uint64_t n,
                              const SortOptions& options, const OnesweepPolicy& os, const RadixPolicyOverride& o) {
  if (options.work_group_size != 0 || options.items_per_thread != 0) return {};  // the tiled path's shape
  const std::size_t ks = key_size(type);
  const bool by_rule = !o.segments.has_value();
  if (!o.segments.value_or(segments_rule(type, vb, n)) || ks < 4 || os.portion != 0 || n > kOnesweepMaxN) return {};
  const double mean = double(n) / double(std::uint64_t(1) << kSegmentBits);
  const double want = mean + 6 * std::sqrt(mean) + 64;
  for (const SegmentShapeRow& r : kSegmentShapes) {
    const SingleTilePolicy tile{r.threads, r.items};
    if (o.segment_threads && r.threads != *o.segment_threads) continue;
    if (double(tile.tile()) >= want && (r.by_default || !by_rule || o.segment_threads) &&
        r.threads <= desc.max_work_group_size &&
        single_tile_local_bytes(tile, ks, vb) + kOneBlockStaticBytes <= desc.local_memory_bytes) {
      // the passes of the row of these widths (float keys too, when the override takes them)
      const SegmentsFromRow* row = segments_row(type, vb);
      const auto [rank_form, min_blocks] = segments_row_passes(type, vb);
      const bool packable = ks == 4 && vb == 4 && !is_float(type);
      const bool packed = packable && o.segment_packed.value_or(row && row->packed);
      const bool interleaved = packable && os.packed_pairs && !packed &&
                               o.segment_interleaved.value_or(row && row->interleaved);
      return {r.threads, r.items, o.segment_skew_percent.value_or(kSegmentTopSkewPercent),
              o.segment_rank.value_or(rank_form), o.segment_min_blocks.value_or(min_blocks), packed, interleaved};
    }
  }
  return {};
}

SingleTilePolicy choose_single_tile(const DeviceDescription& desc, key_type type, std::size_t vb, std::uint64_t n,
                                    const SortOptions& options, const RadixPolicyOverride& o) {
  if (options.work_group_size != 0 || options.items_per_thread != 0) return {};  // the tiled path's shape
  const std::size_t ks = key_size(type);
  SingleTilePolicy s;
  // the bitonic network where it serves the type (kernels/radix_small_bitonic.h: the radix sort's output)
  const std::uint64_t bitonic_cap =
      bitonic_element_bytes(ks, vb) == 0
          ? 0
          : std::min({o.bitonic_max.value_or(bitonic_default_cap(type, vb)),
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
      std::min<std::uint64_t>(s.tile(), o.single_tile_max.value_or(ks == 4 && vb == 0 ? kSingleTileMaxKeys4 : kAny));
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

PortablePolicy choose_portable(const DeviceDescription& desc, key_type type, std::uint64_t n,
                               const SortOptions& options, const RadixPolicyOverride& o) {
  PortablePolicy p;
  if (desc.is_gpu) {  // wide groups, few keys per work-item: more tiles in flight (kPortableGpu)
    p.group = kPortableGpu.group;
    p.items = kPortableGpu.items;
    p.group_digit_scan = true;
  }
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
  if (!desc.is_gpu) p.groups_per_compute_unit = 2;
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

// Pairs under NVIDIA's OpenCL whose values do not fit beside the keys at the table's tile: staged
// after the keys' scatter instead, at this shape. H200, 2^28 u32/u32, one call (2026-11-26): split at
// 16 items (what fits) 12.65-12.67 ms; after the keys at 28 items and 2 blocks/SM 11.22, 28 items and
// 3 blocks 10.68, 24 items and 3 blocks 10.11.
constexpr std::uint32_t kOpenclUnsplitItems = 24, kOpenclUnsplitMinBlocks = 3;

// NVIDIA's OpenCL (OnesweepPolicy::opencl): the cp.async switches and portions off, tiles and
// histogram copies within the device's local memory, and the register cap for min_blocks blocks per SM.
void fit_onesweep_to_opencl(RadixPolicy& p, const DeviceDescription& desc, const SortOptions& options,
                            const RadixPolicyOverride& o) {
  OnesweepPolicy& os = p.onesweep;
  os.opencl = true;
  os.packed_pairs = false;
  os.snapshot = 0;
  os.uniform_count = o.uniform_count.value_or(false);  // measured on CUDA only
  os.match_immediate = 0;                              // inline PTX of CUDA's form only
  if (!o.recompute_digit && p.value_bytes == 0 && key_size(p.type) == 4)
    os.recompute_digit = false;  // kRecomputeKeys4From: measured on CUDA only
  os.portion = 0;
  const std::size_t ks = key_size(p.type);
  const auto fits = [&] {
    return onesweep_pass_local_bytes(p) + onesweep_pass_static_local_bytes(os) <= desc.local_memory_bytes;
  };
  std::uint32_t min_blocks = min_blocks_rule(ks, p.value_bytes, os.split_stage, os.items);
  if (os.split_stage && !fits() && !o.split_stage) {
    os.split_stage = false;
    os.recompute_digit = false;  // the scatter reads staged digits once the values took the keys' place
    if (!o.items && options.items_per_thread == 0) os.items = kOpenclUnsplitItems;  // an explicit shape wins
    min_blocks = kOpenclUnsplitMinBlocks;
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
  while (!spec.empty()) {
    const std::string_view item = spec.substr(0, spec.find(','));
    spec.remove_prefix(std::min(spec.size(), item.size() + 1));
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    const std::string_view name = item.substr(0, eq), text = eq == item.npos ? "" : item.substr(eq + 1);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
      throw Error(errc::invalid_argument, "radix policy: '" + std::string(item) + "' is not name=unsigned-integer");
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
    else if (name == "float_flag") set(o.float_flag, 1);
    else if (name == "packed_pairs") set(o.packed_pairs, 1);
    else if (name == "packed_registers") set(o.packed_registers, 1);
    else if (name == "uniform_count") set(o.uniform_count, 1);
    else if (name == "match_immediate") set(o.match_immediate, 2);
    else if (name == "snapshot") set(o.snapshot, 64);
    else if (name == "hist_copies") set(o.hist_copies, 32);
    else if (name == "hist_blocks_per_sm") {
      if (v == 0) throw Error(errc::invalid_argument, "radix policy: hist_blocks_per_sm must be at least 1");
      set(o.hist_blocks_per_sm, 64);
    }
    else if (name == "no_skip_max_n") set(o.no_skip_max_n, kAny);
    else if (name == "portion") set(o.portion, kAny);
    else if (name == "segments") set(o.segments, 1);
    else if (name == "segment_skew_percent") set(o.segment_skew_percent, kAny);
    else if (name == "segment_threads") {
      if (v != 256 && v != 512) throw Error(errc::invalid_argument, "radix policy: segment_threads is 256 or 512");
      set(o.segment_threads, 512);
    }
    else if (name == "segment_rank") set(o.segment_rank, 2);
    else if (name == "segment_min_blocks") set(o.segment_min_blocks, 8);  // 8 x 256 threads fill an SM
    else if (name == "segment_packed") set(o.segment_packed, 1);
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
  }
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

OnesweepPolicy choose_onesweep_policy(key_type type, std::size_t vb, std::uint64_t n, const SortOptions& options,
                                      const RadixPolicyOverride& o) {
  const std::size_t ks = key_size(type);
  const bool fl = is_float(type);
  OnesweepPolicy p;
  const bool wide_beside = ks == 8 && vb == 8 && n >= kWidePairsBesideFrom && n < kWidePairsBesideBelow;
  p.split_stage = vb != 0 && o.split_stage.value_or(ks + vb <= 8 || wide_beside);
  // Portions (below): the look-back's 30-bit counts cover fewer than 2^30 keys per launch; packed
  // stores address 32-bit positions, so portions never pack (and take the unpacked tile shapes)
  const bool portions = o.portion || n > kOnesweepMaxN;
  if (ks == 4 && vb == 4 && p.split_stage && !portions)
    for (const PackedRow& r : kPackedFrom)
      if (r.float_keys == fl) p.packed_pairs = o.packed_pairs.value_or(n >= r.n_from);
  // values in registers through the ranking (the form kOnesweepItems' packed row was measured with)
  p.packed_registers = p.packed_pairs && o.packed_registers.value_or(true);
  for (const ItemsRow& r : kOnesweepItems)
    if (ks >= r.key_min && ks <= r.key_max && vb >= r.value_min && vb <= r.value_max && n >= r.n_from &&
        n < r.n_below && (!r.packed_only || p.packed_pairs)) {
      p.items = r.items;
      break;
    }
  // small n: fewer keys per thread, so that there are enough tiles for the GPU's SMs
  const std::uint64_t want_items = n / (std::uint64_t(p.group) * (vb == 0 ? kMinTilesKeys : kMinTilesPairs)) / 4 * 4;
  p.items = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.items, std::max<std::uint64_t>(4, want_items)));
  if (o.items) p.items = *o.items;
  if (options.items_per_thread != 0)
    p.items = static_cast<std::uint32_t>(std::min<std::size_t>(options.items_per_thread, 64));
  p.items = std::max<std::uint32_t>(1, std::min<std::uint32_t>(p.items, 64));
  p.min_blocks = o.min_blocks.value_or(min_blocks_rule(ks, vb, p.split_stage, p.items));
  p.recompute_digit = !fl && (vb == 0 || p.split_stage) &&
                      o.recompute_digit.value_or(ks == 8 || vb != 0 || (ks == 4 && n >= kRecomputeKeys4From));
  p.float_flag = fl && o.float_flag.value_or(true);
  p.uniform_count =
      o.uniform_count.value_or(ks == 8 && vb == 8 && !p.split_stage && n >= kUniformCountWidePairsFrom);
  // H200, 2^20-2^28 (docs/lab/radix-tuning.md, twenty-first round): u32 and f32 keys 4-8% faster,
  // 4+4-byte pairs 2-6%, u64 keys 0-3%; u64/u64 compiles to the same code (no full-stripe match)
  p.match_immediate = o.match_immediate.value_or(1);
  p.snapshot = std::min<std::uint32_t>(64, o.snapshot.value_or(ks == 8 && vb == 0 ? kSnapshotW : 0));
  const bool copies16 = ks > 4 || (ks == 4 && vb == 0 && n >= kHistCopies16Keys4From && n < kHistCopies16Keys4Below);
  p.hist_copies = o.hist_copies ? (*o.hist_copies == 16 ? 16 : 32) : copies16 ? 16 : 32;  // 64 KiB at most
  p.no_skip_max_n = o.no_skip_max_n.value_or(kNoSkipMaxN);
  if (portions) {
    const std::uint64_t want = std::min(o.portion.value_or(kOnesweepPortion), kOnesweepPortion);
    // whole groups of 16 tiles: a portion's keys start 4096-byte aligned (views of the keys buffer)
    p.portion = std::max<std::uint64_t>(1, want / (16 * p.tile())) * 16 * p.tile();
  }
  return p;
}

SingleGroupPolicy choose_single_group_policy(const DeviceDescription& desc, key_type type, std::size_t vb,
                                             const SortOptions& options, const RadixPolicyOverride& o) {
  SingleGroupPolicy s;
  const std::uint32_t radix = 1u << s.bits;
  s.group = desc.is_gpu ? 256 : 16;
  if (const std::uint32_t g = o.single_group_size.value_or(0); g >= radix && (g & (g - 1)) == 0) s.group = g;
  while (s.group > radix && s.group > desc.max_work_group_size) s.group >>= 1;
  if (options.work_group_size != 0 || options.items_per_thread != 0) return s;  // the tiled path's shape
  if (s.group < radix || s.group > desc.max_work_group_size) return s;
  const std::uint64_t cap = std::min<std::uint64_t>(o.single_group_max.value_or(kSingleGroupMaxN), 1ull << 24);
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

std::uint64_t onesweep_block_bytes(std::uint32_t passes) {
  return ceil_div(std::uint64_t(passes) * kRadix * 8 + 8, 4096) * 4096;  // + the -0/NaN flag word
}

RadixPolicy choose_radix_policy(const DeviceDescription& desc, key_type type, std::size_t vb, std::uint64_t n,
                                const SortOptions& options, const RadixPolicyOverride& o) {
  RadixPolicy p;
  p.type = type, p.value_bytes = vb, p.n = n;
  p.passes = static_cast<std::uint32_t>((key_size(type) * 8 + kRadixBits - 1) / kRadixBits);
  // portable_onesweep=1 on CUDA: the portable onesweep passes compiled by NVRTC, to compare them with
  // NVIDIA's OpenCL build of the same source and to profile them (Nsight Compute reads CUDA only)
  const bool cuda = desc.backend == "cuda" && !o.portable_onesweep.value_or(false);
  // NVIDIA's OpenCL: radix_onesweep.cl as well, unless the override asks for the portable passes
  // (either kind)
  const bool nvidia_opencl = onesweep_on_nvidia_opencl(desc, n) && !o.portable_onesweep.has_value();
  p.single_group = choose_single_group_policy(desc, type, vb, options, o);
  p.portable = choose_portable(desc, type, n, options, o);
  if (cuda || nvidia_opencl) {
    p.onesweep = choose_onesweep_policy(type, vb, n, options, o);
    // Wide pairs (key + value > 8 bytes) that the rule stages beside their keys want 2 blocks of that
    // layout per SM (kWidePairsBeside; NVIDIA GPUs have about local_memory_bytes + 1 KiB of shared
    // memory per SM, 1 KiB of it reserved per block). Where that does not fit (CUDA GPUs with 99 or
    // 163 KiB per block), and under NVIDIA's OpenCL, they stay staged after their keys.
    const std::uint64_t beside_block_bytes =
        onesweep_pass_local_bytes(p) + onesweep_pass_static_local_bytes(p.onesweep) + 1024;
    if (!o.split_stage && p.onesweep.split_stage && key_size(type) + vb > 8 &&
        (nvidia_opencl || 2 * beside_block_bytes > desc.local_memory_bytes + 1024)) {
      RadixPolicyOverride after_keys = o;
      after_keys.split_stage = false;
      p.onesweep = choose_onesweep_policy(type, vb, n, options, after_keys);
    }
    if (nvidia_opencl) fit_onesweep_to_opencl(p, desc, options, o);
    // programmatic dependent launches of the passes: CUDA only (OpenCL launches never overlap)
    OnesweepPolicy& os = p.onesweep;
    const std::uint64_t launch_tiles = ceil_div(os.portion ? std::min(n, os.portion) : n, os.tile());
    os.overlap_passes = cuda && o.overlap_passes.value_or(true);
    os.early_trigger =
        os.overlap_passes && o.early_trigger.value_or(early_trigger_rule(launch_tiles, desc.compute_units, os.min_blocks));
    // radix_histogram_lanes: u16 lane counters, so a span stays below 2^19 keys and 2^15 per copy
    const std::uint64_t max_span = std::min<std::uint64_t>(1ull << 19, (1ull << 15) * p.onesweep.hist_copies);
    const std::uint64_t hist_blocks = std::uint64_t(desc.compute_units) * o.hist_blocks_per_sm.value_or(kHistBlocksPerSm);
    p.onesweep.hist_spans = plan_spans(n, std::uint64_t(p.onesweep.hist_group) * 32,
                                       std::max<std::uint64_t>(hist_blocks, ceil_div(n, max_span)));
    if (cuda) p.single_tile = choose_single_tile(desc, type, vb, n, options, o);
    if (cuda && p.single_tile.threads == 0) p.segments = choose_segments(desc, type, vb, n, options, p.onesweep, o);
  } else {
    p.portable_onesweep.use = n <= kOnesweepMaxN && o.portable_onesweep.value_or(desc.is_gpu);
    p.portable_onesweep.spin_limit = o.spin_limit.value_or(p.portable_onesweep.spin_limit);
    p.portable_onesweep.fallback_only = o.fallback_only.value_or(false);
    // NVIDIA's OpenCL, H200, 2^28 (docs/lab/radix-tuning.md, twelfth round): keys 1 -> 4 words, u32
    // 12.6-13.2 -> 12.1 ms, u64 27.9-28.3 -> 25.7-25.9; pairs lose (u64/u64 41.2-41.4 -> 43.8-44.3)
    p.portable_onesweep.lookback_window = std::max<std::uint32_t>(1, o.lookback_window.value_or(vb == 0 ? 4 : 1));
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
    add("RADIX_FLOAT_FLAG", p.onesweep.float_flag);
    add("RADIX_MATCH_IMMEDIATE", p.onesweep.match_immediate);
    if (path == RadixPath::segments) {
      add("RADIX_SEGMENT_RANK", p.segments.rank_form);
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
    add("RADIX_FLOAT_FLAG", os.float_flag);
    add("RADIX_UNIFORM_COUNT", os.uniform_count);
    add("RADIX_MATCH_IMMEDIATE", os.match_immediate);
    add("ONESWEEP_PACKED_IN", packed_in);
    add("ONESWEEP_PACKED_OUT", packed_out);
    add("ONESWEEP_PACKED_REGISTERS", packed_in && os.packed_registers);
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

std::vector<std::string> radix_single_tile_program_defines(key_type type, std::size_t value_bytes) {
  RadixPolicy p;
  p.type = type, p.value_bytes = value_bytes;
  p.onesweep = choose_onesweep_policy(type, value_bytes, 4096, SortOptions{});
  return to_defines(p, RadixPath::single_tile);
}

std::vector<std::string> radix_segments_program_defines(key_type type, std::size_t value_bytes,
                                                        std::optional<std::uint32_t> rank_form,
                                                        std::optional<bool> interleaved) {
  RadixPolicy p;
  p.type = type, p.value_bytes = value_bytes;
  p.onesweep = choose_onesweep_policy(type, value_bytes, 4096, SortOptions{});
  const auto [row_form, min_blocks] = segments_row_passes(type, value_bytes);
  p.segments.rank_form = rank_form.value_or(row_form);
  p.segments.min_blocks = min_blocks;
  const SegmentsFromRow* row = segments_row(type, value_bytes);
  p.segments.interleaved = key_size(type) == 4 && value_bytes == 4 && !is_float(type) &&
                          interleaved.value_or(row && row->interleaved);
  return to_defines(p, RadixPath::segments);
}

}  // namespace gpusort::algo
