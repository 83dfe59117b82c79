// Reading segment offsets on the device (segmented_tiles.cl, segmented_long.cl): count + 1 offsets
// of 4 bytes, or of 8 with `wide` (read as two little-endian words, so one u32 pointer serves both
// widths and the program needs no define for it).
#ifndef GPUSORT_SEGMENTED_OFFSETS_H
#define GPUSORT_SEGMENTED_OFFSETS_H
#include "prelude.h"

// Offset i of the segments' offsets (4 bytes each, or 8 with wide: read as two little-endian words).
DEVICE_FN u64 offset_at(GLOBAL const u32* offsets, u32 wide, u64 i) {
  return wide ? ((u64)offsets[2 * i] | ((u64)offsets[2 * i + 1] << 32)) : (u64)offsets[i];
}
// The first s in [lo, hi) whose offset is at least x (hi if none).
DEVICE_FN u64 offsets_lower_bound(GLOBAL const u32* offsets, u32 wide, u64 lo, u64 hi, u64 x) {
  while (lo < hi) {
    const u64 mid = lo + (hi - lo) / 2;
    if (offset_at(offsets, wide, mid) < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// A segment's size class: the smallest c with 2^c >= length (0 for 0 and 1 keys). The binned bin's
// warps and block classes both sort by it (segmented_warp_segments.cl, segmented_long.cl).
DEVICE_FN u32 segment_size_class(u64 length) {
  u32 c = 0;
  while (((u64)1 << c) < length) ++c;
  return c;
}

#endif  // GPUSORT_SEGMENTED_OFFSETS_H
