// LSD radix sort, portable path (OpenCL on PoCL / any GPU, and CUDA as a fallback): per pass a
// count, a scan and a stable scatter, with no forward-progress assumption between work-groups. The
// fast path of NVIDIA GPUs is radix_onesweep.cl.
//
// The keys are split into NUM_GROUPS() contiguous spans of whole tiles (TILE = GROUP_SIZE * ITEMS
// keys); group g always handles span g, so the digit-major table counts[d * groups + g] scanned
// exclusively gives where group g's first key of digit d goes.
//   radix_histogram (radix_histogram.h)  every pass's digit histogram at once (for pass skipping)
//   radix_count     counts[d * groups + g] = keys of span g with digit d (this pass)
//   radix_scan      one work-group: exclusive prefix sum of counts in place, any length
//   radix_scatter   each group walks its span tile by tile: the tile is sorted by the digit in
//                   local memory (stable: radix_tile_split.h, warp votes on NVIDIA GPUs, else two
//                   4-bit rounds of count, group scan and move), then
//                   written out, each digit's keys to consecutive places of its run: input order
//                   is kept.
// Specialised by radix_common.h's defines and ITEMS (keys per work-item in radix_scatter).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 GROUP_SIZE=64 ITEMS=16 RADIX_GROUP_DIGIT_SCAN=0 RADIX_WARP_RANK=0
#include "radix_common.h"
#include "radix_histogram.h"
#include "group_scan.h"

#ifndef ITEMS
#error "ITEMS must be defined"
#endif
#define TILE (GROUP_SIZE * ITEMS)
#include "radix_tile_split.h"  // uses TILE
#define SCAN_ITEMS 16

KERNEL radix_count(GLOBAL const key_t* keys, u64 n, okey_t flip, u32 shift, u64 span, GLOBAL u64* counts) {
  LOCAL_ARRAY u32 local_counts[RADIX];
  const u32 t = LOCAL_ID();
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) local_counts[d] = 0;
  BARRIER();
  const u64 begin = GROUP_ID() * span;
  const u64 end = gs_min_u64(n, begin + span);
  for (u64 i = begin + t; i < end; i += GROUP_SIZE) ATOMIC_ADD_U32(&local_counts[radix_digit(keys[i], flip, shift)], 1u);
  BARRIER();
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) counts[(u64)d * NUM_GROUPS() + GROUP_ID()] = local_counts[d];
}

// Exclusive scan of m u64 entries in place by one work-group of GROUP_SIZE items.
KERNEL radix_scan(GLOBAL u64* data, u64 m) {
  LOCAL_ARRAY u64 sums[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  u64 carry = 0;
  for (u64 base = 0; base < m; base += (u64)GROUP_SIZE * SCAN_ITEMS) {
    const u64 first = base + (u64)t * SCAN_ITEMS;
    u64 s = 0;
    for (u32 j = 0; j < SCAN_ITEMS; ++j)
      if (first + j < m) s += data[first + j];
    sums[t] = s;
    BARRIER();
    for (u32 off = 1; off < GROUP_SIZE; off <<= 1) {  // Hillis-Steele inclusive scan
      u64 add = t >= off ? sums[t - off] : 0;
      BARRIER();
      sums[t] += add;
      BARRIER();
    }
    u64 run = carry + (t > 0 ? sums[t - 1] : 0);
    for (u32 j = 0; j < SCAN_ITEMS; ++j)
      if (first + j < m) {
        u64 v = data[first + j];
        data[first + j] = run;
        run += v;
      }
    carry += sums[GROUP_SIZE - 1];
    BARRIER();
  }
}

KERNEL radix_scatter(GLOBAL const key_t* keys_in, GLOBAL const value_t* values_in, GLOBAL key_t* keys_out,
                     GLOBAL value_t* values_out, u64 n, okey_t flip, u32 shift, u64 span,
                     GLOBAL const u64* offsets) {
  LOCAL_ARRAY key_t lkeys[TILE_SLOTS];  // tile position p in slot TILE_SLOT(p)
  LOCAL_ARRAY u32 lsrc[SRC_SLOTS];  // each sorted key's position in the tile as loaded
  LOCAL_ARRAY u32 cols[COL_SLOTS];  // the tile sort's counters (radix_tile_split.h)
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u32 tile_count[RADIX];              // the tile's keys of each digit
  LOCAL_ARRAY u32 tile_start[RADIX];              // where the tile's first key of each digit is
  LOCAL_ARRAY u64 run[RADIX];                     // where the span's next key of each digit goes
  const u32 t = LOCAL_ID();
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) run[d] = offsets[(u64)d * NUM_GROUPS() + GROUP_ID()];
  const u64 begin = GROUP_ID() * span;
  const u64 end = gs_min_u64(n, begin + span);
  for (u64 tile = begin; tile < end; tile += TILE) {
    const u32 valid = (u32)gs_min_u64((u64)TILE, end - tile);
    for (u32 d = t; d < RADIX; d += GROUP_SIZE) tile_count[d] = 0;
    BARRIER();
    radix_tile_load(keys_in, tile, valid, flip, shift, lkeys, lsrc, tile_count);
    for (u32 d = t; d < RADIX; d += GROUP_SIZE) tile_start[d] = tile_count[d];
    BARRIER();
    // (its closing barrier is not needed by the memory model, the round's first one comes first, but
    // PoCL 3.1 otherwise loses the block above when a loop with barriers follows it)
    radix_digits_exclusive_scan(tile_start, scratch, true);
    radix_tile_sort(lkeys, lsrc, cols, scratch, tile_start, valid, flip, shift);
    // Sorted by digit: key j of digit d goes to run[d] + (j - tile_start[d]); consecutive work-items
    // write consecutive places of one digit's run.
    for (u32 j = t; j < valid; j += GROUP_SIZE) {
      const u32 d = radix_digit(lkeys[TILE_SLOT(j)], flip, shift);
      const u64 dst = run[d] + (j - tile_start[d]);
      keys_out[dst] = lkeys[TILE_SLOT(j)];
#if HAS_VALUES
      values_out[dst] = values_in[tile + lsrc[TILE_SLOT(j)]];
#endif
    }
    BARRIER();
    for (u32 d = t; d < RADIX; d += GROUP_SIZE) run[d] += tile_count[d];
    BARRIER();
  }
#if !HAS_VALUES
  (void)values_in;
  (void)values_out;
#endif
}
