// LSD radix sort, fast path of NVIDIA GPUs: one kernel per digit (onesweep: Adinets & Merrill,
// "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs", 2022; written from the paper).
// Built by NVRTC for CUDA devices and by NVIDIA's OpenCL for its GPUs (warp votes, shuffles and byte
// permutes as inline PTX there: nvidia_ops.h; the look-back spins on its predecessors, as CUDA's
// does: their tile ids came first from the atomic counter, so they are already resident on these
// GPUs). The all-digit histogram comes first (radix_histogram_lanes, radix_lane_histogram.h) and
// stays on the device. Small inputs on CUDA take radix_single_tile.cl instead.
//
// radix_onesweep, one block per tile of TILE = GROUP_SIZE * ITEMS keys, GROUP_SIZE == RADIX, in
// named phases (radix_onesweep_phases.h):
//  1. onesweep_load_keys: the tile id comes from an atomic counter (so every tile's predecessor is
//     already running); keys are loaded warp-striped (coalesced);
//  2. onesweep_count_and_publish: per-warp digit counts (shared atomics), published at once in
//     status[tile][digit] (radix_lookback.h; tile 0 publishes INCLUSIVE words that already hold the
//     digits' global offsets from the histogram); a scan over digits and warps turns them into each
//     warp's first tile position per digit (CUB's "early counts" ranking);
//  3. onesweep_rank_and_stage: the warp ranking (radix_warp_rank.h) yields final tile positions and
//     each key is staged in shared memory at once. Full stripes (all tiles but the last) count and
//     rank without validity tests: the ranking is ALU-bound, so its instructions per key set the pass
//     time (lab/notes/radix-tuning.md);
//  4. onesweep_load_values, then per digit (one thread each) the decoupled look-back over the
//     predecessors' status words (radix_lookback.h; they had the whole ranking to publish);
//  5. onesweep_scatter: the staged keys (then values) are written out so that each digit's run of the
//     tile goes to consecutive global addresses.
// Portions (ONESWEEP_PORTIONS, n >= 2^30): the look-back's status words carry 30-bit counts, so a
// larger input is sorted in portions of fewer keys, one launch per portion and pass, each with its
// own tile counter and status words, and 64-bit positions. Tile 0 of a portion publishes counts
// from zero; each tile adds its portion's 64-bit digit offsets (a block of [pass][RADIX] words):
// radix_portion_bases fills portion 0's from the histogram, and the last tile of portion k writes
// portion k + 1's (its offsets plus the portion's digit totals, known after its look-back; the keys
// a portion holds change from pass to pass, so the totals come from the pass itself).
// ONESWEEP_PORTIONS is 0 or the distance in words between consecutive portions' blocks.
// Packed pairs (radix_packed_pairs.h): ONESWEEP_PACKED_IN 1 reads them, ONESWEEP_PACKED_OUT 1 writes
// them; ONESWEEP_PACKED_OUT 2 writes them interleaved instead (radix_interleaved_pairs.h), for the
// segments (radix_segments.cl) after the last pass.
// Every switch comes from the host (src/algorithms/radix_policy.cpp, to_defines). CUDA only: the
// look-back snapshot and packed pairs (cp.async), portions, the single tile. The OpenCL build takes
// its register cap from the host as a build option (GS_MAX_REGISTERS), not from __launch_bounds__.
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 GROUP_SIZE=256 ITEMS=16 ONESWEEP_MIN_BLOCKS=3 ONESWEEP_SPLIT_STAGE=1 VALUE_BYTES=4
// NVRTC-CHECK-DEFINES: ONESWEEP_RECOMPUTE_DIGIT=1 ONESWEEP_LOOKBACK_SNAPSHOT=0 RADIX_HIST_COPIES=32
// NVRTC-CHECK-DEFINES: ONESWEEP_PACKED_IN=0 ONESWEEP_PACKED_OUT=0 ONESWEEP_PORTIONS=1536 ONESWEEP_ALLOW_NEXT=1
#include "radix_common.h"

#if !defined(ITEMS) || !defined(ONESWEEP_MIN_BLOCKS) || !defined(ONESWEEP_SPLIT_STAGE) || !defined(ONESWEEP_RECOMPUTE_DIGIT) || \
    !defined(ONESWEEP_LOOKBACK_SNAPSHOT) || !defined(ONESWEEP_PACKED_IN) || !defined(ONESWEEP_PACKED_OUT)
#error "radix_onesweep.cl takes every switch from the host (src/algorithms/radix_policy.cpp, to_defines)"
#endif
#if GROUP_SIZE != RADIX
#error "radix_onesweep needs GROUP_SIZE == RADIX"
#endif
#ifndef ONESWEEP_PORTIONS
#define ONESWEEP_PORTIONS 0
#endif
#ifndef ONESWEEP_ALLOW_NEXT  // 1: an overlapping next launch may start before the scatter, 0: at exit
#define ONESWEEP_ALLOW_NEXT 0
#endif
// A packed-input pass keeps the values in registers from the load and stages each with its key in
// the ranking.
#define ONESWEEP_VALUES_IN_RANK ONESWEEP_PACKED_IN
#if ONESWEEP_PORTIONS && (ONESWEEP_PACKED_IN || ONESWEEP_PACKED_OUT)
#error "packed pairs address 32-bit positions: not with portions"
#endif
#if !GS_CUDA && (ONESWEEP_PACKED_IN || ONESWEEP_PACKED_OUT || ONESWEEP_PORTIONS)
#error "packed pairs and portions are CUDA-only switches of radix_onesweep.cl"
#endif
#if GS_CUDA
#define ONESWEEP_BOUNDS __launch_bounds__(GROUP_SIZE, ONESWEEP_MIN_BLOCKS)
#else
#define ONESWEEP_BOUNDS
#endif
// A key's global position: 32 bits while n < 2^30 (cheaper registers and shared memory), else 64.
#if ONESWEEP_PORTIONS
typedef u64 gpos_t;
#else
typedef u32 gpos_t;
#endif
#define TILE (GROUP_SIZE * ITEMS)
#define WARPS (GROUP_SIZE / 32)
// ONESWEEP_SPLIT_STAGE: values get their own staging area after the keys' (TILE x (key + value
// bytes)), staged before the scatter barrier; 0: values reuse the keys' area after a second barrier
// (TILE x max(key, value bytes)).
#if ONESWEEP_SPLIT_STAGE
#define STAGE_BYTES (KEY_BITS / 8 + VALUE_BYTES)
#elif HAS_VALUES && VALUE_BYTES > KEY_BITS / 8
#define STAGE_BYTES VALUE_BYTES
#else
#define STAGE_BYTES (KEY_BITS / 8)
#endif
// ONESWEEP_RECOMPUTE_DIGIT: the scatter takes each staged key's digit from the key (integer keys: 2-3
// ALU instructions) instead of a staged digit byte (one shared store and one shared load less per
// key: the pairs pass is shared-memory-throttled). Needs the staged keys at scatter time: keys only
// or values staged beside them.
#if ONESWEEP_RECOMPUTE_DIGIT && (KEY_KIND == 2 || (HAS_VALUES && !ONESWEEP_SPLIT_STAGE))
#undef ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_RECOMPUTE_DIGIT 0
#endif
// Full stripes count and rank without validity tests (0: one generic path). H200, 2^28: u64 keys
// 14.2 ms with it, 16.1 without; u64/u64 pairs (values staged after the keys' scatter) 27.3 with it,
// 26.0 without (not understood: same registers, no spills), so that layout keeps the generic path.
#define ONESWEEP_FULL_PATH (!(HAS_VALUES && !ONESWEEP_SPLIT_STAGE))

#include "radix_float_flip.h"
#include "radix_packed_pairs.h"
#include "radix_warp_rank.h"
#include "radix_block_scan.h"
#include "radix_lane_histogram.h"
#include "radix_lookback.h"
#include "radix_onesweep_phases.h"

// hist: the histogram kernel's output, [pass][RADIX]. Tile 0 turns its pass row into the digits'
// global offsets and publishes them inside its INCLUSIVE status words, so every look-back ends with
// the global position of the tile's first key of each digit (no host round trip for offsets).
// With portions, hist is the portion's block of offsets instead (the next portion's block follows
// ONESWEEP_PORTIONS words later): the 64-bit offsets are added after the look-back, which counts
// from the portion's start.
// Dynamic local memory (host: onesweep_pass_local_bytes): the staging buffer (TILE x STAGE_BYTES),
// then warp_off[w][d] (first the count of warp w's keys of digit d, then the tile position of warp
// w's first digit-d key, advanced by the ranking), then stage_digit[TILE] (the digit of each staged
// key, unless recomputed), then the look-back snapshot snap[W][RADIX] (16-byte aligned; its own area:
// the value staging area is free then too, but other threads would stage values over words not yet
// read).
KERNEL ONESWEEP_BOUNDS
radix_onesweep(GLOBAL const key_t* RESTRICT keys_in, GLOBAL const value_t* RESTRICT values_in,
               GLOBAL key_t* RESTRICT keys_out, GLOBAL value_t* RESTRICT values_out, u64 n, okey_t flip, u32 shift,
               GLOBAL const u64* RESTRICT hist, GLOBAL u32* status, GLOBAL u32* status_next,
               GLOBAL u32* tile_counter, u32 sweep GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, stage);
  LOCAL u32(*warp_off)[RADIX] = (LOCAL u32(*)[RADIX])(stage + (u64)TILE * STAGE_BYTES);
  LOCAL u8* stage_digit = stage + (u64)TILE * STAGE_BYTES + WARPS * RADIX * 4u;
  LOCAL u32* snap = (LOCAL u32*)(stage + (((u64)TILE * STAGE_BYTES + WARPS * RADIX * 4u +
                                           (ONESWEEP_RECOMPUTE_DIGIT ? 0u : TILE) + 15u) & ~(u64)15u));
  LOCAL_ARRAY gpos_t global_base[RADIX];  // mod 2^32 (2^64): global index of the digit's key at tile position s = base + s
  LOCAL_ARRAY u32 warp_sums[WARPS];
  LOCAL_ARRAY u32 s_tile;
  const u32 t = LOCAL_ID(), lane = t & 31u, warp = t >> 5;
  // launched to overlap the kernel before it (CUDA): nothing here touches memory before that one has
  // finished
  GS_WAIT_PREVIOUS_GRID();
  if (t == 0) s_tile = ATOMIC_ADD_U32(&tile_counter[sweep], 1u);
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) warp_off[w][t] = 0;
  BARRIER();
  const u32 tile = s_tile;
  // the next pass's status words (the other buffer of a ping-pong pair; the previous pass, which used
  // it, has finished) are cleared here, so no pass needs a separate reset (== status: one pass only)
  if (status_next != status) status_next[(u64)tile * RADIX + t] = 0;
  const u64 base = (u64)tile * TILE;
  const u64 stripe = base + (u64)warp * 32u * ITEMS;
  const u32 in_stripe = (u32)gs_min_u64((u64)32u * ITEMS, n > stripe ? n - stripe : 0);
  const bool full_stripe = ONESWEEP_FULL_PATH && in_stripe == 32u * ITEMS;  // counts, ranking
  // the warp-level count needs full stripes: it takes them in every layout (values staged after the
  // keys too, whose other phases keep the generic path)
  const bool full_count = (ONESWEEP_FULL_PATH || RADIX_UNIFORM_COUNT) && in_stripe == 32u * ITEMS;
  key_t k[ITEMS];
  u32 pos[ITEMS];  // the key's place in the tile (digit order, stable)
  u32 dpk[(ITEMS + 3) / 4];
  value_t v[ITEMS];
  LOCAL value_t* stage_values = (LOCAL value_t*)(stage + (ONESWEEP_SPLIT_STAGE ? (u64)TILE * (KEY_BITS / 8) : 0));
  onesweep_load_keys(k, v, keys_in, values_in, n, stripe, in_stripe, lane);
  const OnesweepCounts c = onesweep_count_and_publish(k, dpk, warp_off, warp_sums, status, hist, flip, shift, tile,
                                                      in_stripe, full_count);
  onesweep_rank_and_stage(k, v, dpk, pos, warp_off[warp], (LOCAL key_t*)stage, stage_values, stage_digit, snap, status,
                          tile, in_stripe, full_stripe);
  onesweep_load_values(v, values_in, stripe, in_stripe, lane);
  u32 exclusive = c.exclusive;  // keys of digit t before this tile, in the whole output
  if (tile > 0) {
    exclusive = radix_lookback(status + t, snap, tile, t, exclusive);
    *(volatile GLOBAL u32*)(status + (u64)tile * RADIX + t) = STATUS_INCLUSIVE | (exclusive + c.count);
  }
#if ONESWEEP_PORTIONS
  const u64 portion_base = hist[(shift / RADIX_BITS) * RADIX + t];
  global_base[t] = portion_base + (u64)exclusive - (u64)c.excl_digit;
  if (tile == (u32)NUM_GROUPS() - 1u)  // the whole portion is counted: the next portion's offset of digit t
    ((GLOBAL u64*)hist)[ONESWEEP_PORTIONS + (shift / RADIX_BITS) * RADIX + t] = portion_base + exclusive + c.count;
#else
  global_base[t] = exclusive - c.excl_digit;
#endif
#if ONESWEEP_ALLOW_NEXT
  GS_ALLOW_NEXT_GRID();  // the next pass's blocks may start once every block is here (they wait for our end)
#endif
  onesweep_scatter(v, pos, (LOCAL key_t*)stage, stage_values, stage_digit, global_base, keys_out, values_out, n, base, flip,
                   shift, in_stripe);
}

#if GS_CUDA
// Portions: portion 0's offsets block from the histogram (per pass, the digits' exclusive scan), and
// the float flag word (after the pass rows) in every one of the `blocks` blocks, block_words apart.
// One block of RADIX threads.
KERNEL __launch_bounds__(RADIX, 1)
radix_portion_bases(const u64* RESTRICT hist, u64* RESTRICT bases, u32 blocks, u32 block_words) {
  __shared__ u64 sums[RADIX];
  const u32 t = threadIdx.x;
  for (u32 p = 0; p < RADIX_PASSES; ++p) {
    const u64 count = hist[p * RADIX + t];
    sums[t] = count;
    __syncthreads();
    // inclusive scan over the digits, inline: u64 counts (n passes 2^32 here), group_scan.h's are u32
    for (u32 off = 1; off < RADIX; off <<= 1) {
      const u64 left = t >= off ? sums[t - off] : 0;
      __syncthreads();
      sums[t] += left;
      __syncthreads();
    }
    bases[p * RADIX + t] = sums[t] - count;
    __syncthreads();
  }
  for (u32 k = t; k < blocks; k += RADIX) bases[(u64)k * block_words + RADIX_PASSES * RADIX] = hist[RADIX_PASSES * RADIX];
}
#endif  // GS_CUDA
