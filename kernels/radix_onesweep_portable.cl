// LSD radix sort, onesweep passes for any OpenCL device (NVIDIA's, AMD's, Intel's OpenCL; PoCL):
// one kernel per digit, as on CUDA (radix_onesweep.cl), but with no forward-progress assumption
// between work-groups, and sub-group operations only where the host says the device votes in warps
// (RADIX_WARP_RANK: NVIDIA GPUs). Per pass it reads the keys once and writes them
// once; the count + scan + scatter passes (radix_passes.cl) read them twice and scan the counts in
// one work-group.
//
// radix_onesweep_portable, one work-group per tile of TILE = GROUP_SIZE * ITEMS keys:
//  1. the tile id comes from an atomic counter (tiles are claimed in start order), the keys are
//     loaded coalesced into local memory and counted per digit (local atomics);
//  2. the counts are published at once in status[tile][digit] (radix_status.h): AGGREGATE, or for
//     tile 0 INCLUSIVE words that already hold the digits' global offsets (its exclusive scan of the
//     pass's histogram row);
//  3. the tile is sorted by the digit in local memory (radix_tile_split.h: warp votes on NVIDIA GPUs,
//     else two stable 4-bit rounds), while the successors publish;
//  4. per digit (work-item t takes digits t, t + GROUP_SIZE, ...) the look-back over the
//     predecessors' words, ONESWEEP_LOOKBACK_WINDOW at a time, with the fallback of
//     radix_lookback_fallback.h, then the tile's
//     INCLUSIVE word;
//  5. the sorted tile is written out: consecutive work-items write consecutive places of each
//     digit's run (values gathered from the input by each key's tile position).
// The next pass's status words (the other buffer of a ping-pong pair) are cleared by the tiles of
// this one, as on CUDA. Counts are 30-bit: the host takes this path for n < 2^30.
// The same program holds radix_histogram.h's histogram (every pass's digits, for skipping passes).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 GROUP_SIZE=256 ITEMS=8 ONESWEEP_SPIN_LIMIT=1024 ONESWEEP_FALLBACK_ONLY=0 RADIX_GROUP_DIGIT_SCAN=1 RADIX_WARP_RANK=1 ONESWEEP_LOOKBACK_WINDOW=4
#if !defined(ITEMS) || !defined(ONESWEEP_SPIN_LIMIT) || !defined(ONESWEEP_FALLBACK_ONLY) || !defined(ONESWEEP_LOOKBACK_WINDOW)
#error "radix_onesweep_portable.cl takes every switch from the host (src/algorithms/radix_policy.cpp, to_defines)"
#endif
#define TILE (GROUP_SIZE * ITEMS)
#include "radix_common.h"
#include "radix_histogram.h"
#include "group_scan.h"
#include "radix_tile_split.h"
#include "radix_lookback_fallback.h"

KERNEL radix_onesweep_portable(GLOBAL const key_t* keys_in, GLOBAL const value_t* values_in, GLOBAL key_t* keys_out,
                               GLOBAL value_t* values_out, u64 n, okey_t flip, u32 shift, GLOBAL const u64* hist,
                               GLOBAL u32* status, GLOBAL u32* status_next, GLOBAL u32* tile_counter, u32 sweep) {
  LOCAL_ARRAY key_t lkeys[TILE_SLOTS];  // tile position p in slot TILE_SLOT(p)
  LOCAL_ARRAY u32 lsrc[SRC_SLOTS];  // each sorted key's position in the tile as loaded
  LOCAL_ARRAY u32 cols[COL_SLOTS];  // the tile sort's counters (radix_tile_split.h)
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u32 tile_count[RADIX];   // the tile's keys of each digit
  LOCAL_ARRAY u32 tile_start[RADIX];   // where the tile's first key of each digit is, once sorted
  LOCAL_ARRAY u32 global_base[RADIX];  // tile 0: the digits' global offsets; then output index - tile position
  LOCAL_ARRAY u32 claimed[1];
  const u32 t = LOCAL_ID();
  if (t == 0) claimed[0] = ATOMIC_ADD_U32(&tile_counter[sweep], 1u);
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) tile_count[d] = 0;
  BARRIER();
  const u32 tile = claimed[0];
  if (status_next != status)
    for (u32 d = t; d < RADIX; d += GROUP_SIZE) status_next[(u64)tile * RADIX + d] = 0;
  const u64 base = (u64)tile * TILE;
  const u32 valid = (u32)gs_min_u64((u64)TILE, n - base);
  GLOBAL const u64* hist_row = hist + (shift / RADIX_BITS) * RADIX;

  // 1. load and count
  radix_tile_load(keys_in, base, valid, flip, shift, lkeys, lsrc, tile_count);
  // 2. publish (and the tile's digit starts)
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) {
    tile_start[d] = tile_count[d];
    if (tile == 0) global_base[d] = (u32)hist_row[d];
  }
  BARRIER();
#if RADIX_GROUP_DIGIT_SCAN
  if (tile == 0)  // uniform over the group, so its barriers are met by all work-items or none
#endif
    radix_digits_exclusive_scan(global_base, scratch, tile == 0);  // CPUs: every tile (no barrier under a branch on PoCL)
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) {
    volatile GLOBAL u32* word = status + (u64)tile * RADIX + d;
    *word = tile == 0 ? STATUS_INCLUSIVE | (global_base[d] + tile_count[d]) : STATUS_AGGREGATE | tile_count[d];
  }
  radix_digits_exclusive_scan(tile_start, scratch, true);
  // 3. the tile in digit order
  radix_tile_sort(lkeys, lsrc, cols, scratch, tile_start, valid, flip, shift);
  // 4. look-back
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) {
    u32 exclusive;
    if (tile == 0) {
      exclusive = global_base[d];
    } else {
      exclusive = radix_lookback_with_fallback(status, keys_in, n, flip, shift, hist_row, tile, d);
      volatile GLOBAL u32* word = status + (u64)tile * RADIX + d;
      *word = STATUS_INCLUSIVE | (exclusive + tile_count[d]);
    }
    global_base[d] = exclusive - tile_start[d];  // mod 2^32: + the tile position gives the output index
  }
  BARRIER();
  // 5. scatter
  for (u32 j = t; j < valid; j += GROUP_SIZE) {
    const u32 dst = global_base[radix_digit(lkeys[TILE_SLOT(j)], flip, shift)] + j;
    keys_out[dst] = lkeys[TILE_SLOT(j)];
#if HAS_VALUES
    values_out[dst] = values_in[base + lsrc[TILE_SLOT(j)]];
#endif
  }
#if !HAS_VALUES
  (void)values_in;
  (void)values_out;
#endif
}
