// Decoupled look-back with a fallback, for the portable onesweep pass (radix_onesweep_portable.cl):
// no forward-progress assumption between work-groups. OpenCL promises nothing about whether a
// work-group that started earlier keeps running while a later one waits for it, so a look-back that
// only spins could wait forever (after Smith, Levien and Owens, "Decoupled Fallback", SPAA 2025).
// Here a work-item that has read an unpublished predecessor ONESWEEP_SPIN_LIMIT times in a row counts
// that predecessor's keys of its digit itself, from the pass's input (each tile's keys are known:
// tile j holds input keys [j * TILE, (j + 1) * TILE)), and walks on. On GPUs the wait is short
// (tiles are claimed in start order); the fallback bounds it everywhere.
//
// Status words: radix_status.h, as in the CUDA pass. Needs TILE, RADIX, RADIX_BITS, ONESWEEP_SPIN_LIMIT and
// ONESWEEP_LOOKBACK_WINDOW;
// ONESWEEP_FALLBACK_ONLY = 1 (tests) counts every predecessor itself, never reading a status word.
#ifndef GPUSORT_RADIX_LOOKBACK_FALLBACK_H
#define GPUSORT_RADIX_LOOKBACK_FALLBACK_H
#include "radix_common.h"
#include "radix_status.h"

// Keys of digit d in tile j of the pass's input. Tile 0's INCLUSIVE word also holds the digit's
// global offset (the keys of smaller digits, from the histogram row of the pass): added here too.
DEVICE_FN u32 radix_fallback_tile_count(GLOBAL const key_t* keys, u64 n, okey_t flip, u32 shift,
                                        GLOBAL const u64* hist_row, u32 j, u32 d) {
  const u64 begin = (u64)j * TILE, end = gs_min_u64(n, begin + TILE);
  u32 c = 0;
  for (u64 i = begin; i < end; ++i) c += radix_digit(keys[i], flip, shift) == d ? 1u : 0u;
  if (j == 0)
    for (u32 e = 0; e < d; ++e) c += (u32)hist_row[e];
  return c;
}

// Tile `tile` > 0, digit d: the number of digit-d keys before this tile in the pass's output order,
// i.e. the digit's global offset plus the predecessors' counts.
// Each step reads the words of the ONESWEEP_LOOKBACK_WINDOW predecessors below j at once (their
// round trips overlap) and sums the leading published ones.
DEVICE_FN u32 radix_lookback_with_fallback(GLOBAL const u32* status, GLOBAL const key_t* keys, u64 n, okey_t flip,
                                           u32 shift, GLOBAL const u64* hist_row, u32 tile, u32 d) {
  u32 exclusive = 0;
  u32 j = tile;  // predecessors below j are not summed yet
  u32 spins = 0;
  while (j > 0) {
    u32 w[ONESWEEP_LOOKBACK_WINDOW];
    for (u32 k = 0; k < ONESWEEP_LOOKBACK_WINDOW; ++k)
#if ONESWEEP_FALLBACK_ONLY
      w[k] = 0u;
#else
      w[k] = j > k ? ATOMIC_LOAD_U32(status + (u64)(j - 1u - k) * RADIX + d) : 0u;
#endif
    u32 used = 0;  // leading published words, summed
    bool inclusive = false;
    for (u32 k = 0; k < ONESWEEP_LOOKBACK_WINDOW; ++k)
      if (!inclusive && used == k && (w[k] & (STATUS_AGGREGATE | STATUS_INCLUSIVE)) != 0u) {
        exclusive += w[k] & STATUS_VALUE;
        used = k + 1u;
        inclusive = (w[k] & STATUS_INCLUSIVE) != 0u;  // tile 0's word is inclusive: every walk ends
      }
    if (inclusive) break;
    if (used != 0u) {
      j -= used;
      spins = 0;
    } else if (++spins > ONESWEEP_SPIN_LIMIT) {
      exclusive += radix_fallback_tile_count(keys, n, flip, shift, hist_row, j - 1u, d);
      --j;
      spins = 0;
    }
  }
  return exclusive;
}

#endif  // GPUSORT_RADIX_LOOKBACK_FALLBACK_H
