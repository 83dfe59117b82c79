// Prefix sums and running maxima of one u32 per work-item over a work-group, for the portable kernels (any
// OpenCL device, PoCL included): Hillis-Steele steps through local memory. The CUDA radix paths have
// their warp-shuffle form in radix_block_scan.h.
#ifndef GPUSORT_GROUP_SCAN_H
#define GPUSORT_GROUP_SCAN_H
#include "prelude.h"

// The inclusive scan under a sum (take_max 0) or a maximum (1) of one u32 per work-item: every
// work-item of the group calls it, with the same take_max; scratch holds LOCAL_SIZE() words and then
// holds the scan. Ends with a barrier, so scratch may be used again at once.
DEVICE_FN u32 group_inclusive_scan_op_u32(u32 v, LOCAL u32* scratch, int take_max) {
  const u32 t = LOCAL_ID(), size = LOCAL_SIZE();
  scratch[t] = v;
  BARRIER();
  for (u32 off = 1; off < size; off <<= 1) {
    const u32 other = t >= off ? scratch[t - off] : 0u;
    BARRIER();
    const u32 mine = scratch[t];
    scratch[t] = take_max ? (other > mine ? other : mine) : mine + other;
    BARRIER();
  }
  const u32 inclusive = scratch[t];
  BARRIER();
  return inclusive;
}

// Every work-item of the group calls it; scratch holds LOCAL_SIZE() words. Returns the sum of v
// over the work-items before this one; scratch[i] then holds the sum over work-items 0..i. Ends with
// a barrier, so scratch may be used again at once.
// (No out-parameter for the total: PoCL mishandles the address of a private variable that lives
// across barriers, and the kernels read the total where they need it.)
DEVICE_FN u32 group_exclusive_scan_u32(u32 v, LOCAL u32* scratch) {
  return group_inclusive_scan_op_u32(v, scratch, 0) - v;
}

// The largest v over the work-items before this one (0 for the first); as above otherwise.
DEVICE_FN u32 group_exclusive_max_u32(u32 v, LOCAL u32* scratch) {
  const u32 t = LOCAL_ID();
  group_inclusive_scan_op_u32(v, scratch, 1);
  const u32 before = t ? scratch[t - 1] : 0u;
  BARRIER();  // read before the next call writes scratch
  return before;
}

#endif  // GPUSORT_GROUP_SCAN_H
