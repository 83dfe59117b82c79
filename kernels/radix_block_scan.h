// Exclusive prefix sum over a block's threads (CUDA radix paths: radix_onesweep's digit scan, the
// single tile's). Warp shuffles, then the warps' totals through warp_sums (one word per warp).
#ifndef GPUSORT_RADIX_BLOCK_SCAN_H
#define GPUSORT_RADIX_BLOCK_SCAN_H
#include "prelude.h"

// All threads must call it. It ends with a barrier, so warp_sums may be used again at once.
DEVICE_FN u32 radix_block_exclusive_scan(u32 v, u32* warp_sums) {
  const u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  u32 incl = v;
#pragma unroll
  for (u32 off = 1; off < 32; off <<= 1) {
    const u32 y = __shfl_up_sync(0xFFFFFFFFu, incl, off);
    if (lane >= off) incl += y;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  u32 prefix = 0;
  for (u32 w = 0; w < warp; ++w) prefix += warp_sums[w];
  __syncthreads();
  return prefix + incl - v;
}

#endif  // GPUSORT_RADIX_BLOCK_SCAN_H
