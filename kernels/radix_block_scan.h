// Exclusive prefix sum over a block's threads (radix paths of NVIDIA GPUs: radix_onesweep's digit
// scan, the single tile's). Warp shuffles, then the warps' totals through warp_sums (one word per warp).
#ifndef GPUSORT_RADIX_BLOCK_SCAN_H
#define GPUSORT_RADIX_BLOCK_SCAN_H
#include "nvidia_ops.h"

// All threads must call it. It ends with a barrier, so warp_sums may be used again at once.
DEVICE_FN u32 radix_block_exclusive_scan(u32 v, LOCAL u32* warp_sums) {
  const u32 lane = LOCAL_ID() & 31u, warp = LOCAL_ID() >> 5;
  const u32 incl = warp_inclusive_sum_u32(v, lane);
  if (lane == 31) warp_sums[warp] = incl;
  BARRIER();
  u32 prefix = 0;
  for (u32 w = 0; w < warp; ++w) prefix += warp_sums[w];
  BARRIER();
  return prefix + incl - v;
}

#endif  // GPUSORT_RADIX_BLOCK_SCAN_H
