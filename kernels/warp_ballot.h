// Warp votes for the portable kernels where the device has 32-wide warps that vote (NVIDIA's GPUs):
// CUDA's intrinsics under NVRTC, the same PTX instructions inline under NVIDIA's OpenCL, which has
// no sub-group extension. Include only when the host says the device has them (RADIX_WARP_RANK).
// Every lane of the warp must make each call (the full mask); a work-group's warps are its
// consecutive runs of 32 work-items, so GROUP_SIZE must be a multiple of 32.
#ifndef GPUSORT_WARP_BALLOT_H
#define GPUSORT_WARP_BALLOT_H
#include "prelude.h"

#if GS_CUDA
DEVICE_FN u32 warp_ballot(bool p) { return __ballot_sync(0xFFFFFFFFu, p); }
DEVICE_FN void warp_sync(void) { __syncwarp(); }  // orders the lanes' shared-memory accesses too
DEVICE_FN u32 warp_popcount(u32 x) { return (u32)__popc(x); }
#else
DEVICE_FN u32 warp_ballot(bool p) {
  u32 bits;
  __asm__ __volatile__("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.sync.ballot.b32 %0, q, 0xffffffff; }"
               : "=r"(bits)
               : "r"((u32)p));
  return bits;
}
DEVICE_FN void warp_sync(void) { __asm__ __volatile__("bar.warp.sync 0xffffffff;" ::: "memory"); }
DEVICE_FN u32 warp_popcount(u32 x) { return popcount(x); }
#endif

#endif  // GPUSORT_WARP_BALLOT_H
