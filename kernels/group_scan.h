// Exclusive prefix sum of one u32 per work-item over a work-group, for the portable kernels (any
// OpenCL device, PoCL included): Hillis-Steele steps through local memory. The CUDA radix paths have
// their warp-shuffle form in radix_block_scan.h.
#ifndef GPUSORT_GROUP_SCAN_H
#define GPUSORT_GROUP_SCAN_H
#include "prelude.h"

// Every work-item of the group calls it; scratch holds LOCAL_SIZE() words. Returns the sum of v
// over the work-items before this one; scratch[i] then holds the sum over work-items 0..i. Ends with
// a barrier, so scratch may be used again at once.
// (No out-parameter for the total: PoCL mishandles the address of a private variable that lives
// across barriers, and the kernels read the total where they need it.)
DEVICE_FN u32 group_exclusive_scan_u32(u32 v, LOCAL u32* scratch) {
  const u32 t = LOCAL_ID(), size = LOCAL_SIZE();
  scratch[t] = v;
  BARRIER();
  for (u32 off = 1; off < size; off <<= 1) {
    const u32 add = t >= off ? scratch[t - off] : 0u;
    BARRIER();
    scratch[t] += add;
    BARRIER();
  }
  const u32 inclusive = scratch[t];
  BARRIER();
  return inclusive - v;
}

#endif  // GPUSORT_GROUP_SCAN_H
