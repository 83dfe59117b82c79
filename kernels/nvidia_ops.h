// Instructions of NVIDIA GPUs that the kernel dialect (prelude.h) lacks: warp votes and shuffles, byte
// permutes, leading-zero and population counts; and the warp's prefix sum built on the shuffles. Under
// NVRTC they are CUDA's intrinsics, under NVIDIA's OpenCL (no sub-group extension) the same PTX
// instructions inline. Include only where the host says
// the device is an NVIDIA GPU (RADIX_WARP_RANK; radix_onesweep.cl runs only there).
// Every lane of the warp must make each warp call (the full mask); a work-group's warps are its
// consecutive runs of 32 work-items, so GROUP_SIZE must be a multiple of 32.
#ifndef GPUSORT_NVIDIA_OPS_H
#define GPUSORT_NVIDIA_OPS_H
#include "prelude.h"

#if GS_CUDA
DEVICE_FN u32 warp_ballot(bool p) { return __ballot_sync(0xFFFFFFFFu, p); }
DEVICE_FN void warp_sync(void) { __syncwarp(); }  // orders the lanes' shared-memory accesses too
DEVICE_FN u32 warp_popcount(u32 x) { return (u32)__popc(x); }
DEVICE_FN u32 warp_clz(u32 x) { return (u32)__clz(x); }
// lane src's v (src < 32)
DEVICE_FN u32 warp_shuffle(u32 v, u32 src) { return __shfl_sync(0xFFFFFFFFu, v, src); }
// lane (this - delta)'s v; lanes below delta get their own
DEVICE_FN u32 warp_shuffle_up(u32 v, u32 delta) { return __shfl_up_sync(0xFFFFFFFFu, v, delta); }
// bytes of {b, a} (b high) picked by the selector's nibbles (PRMT)
DEVICE_FN u32 byte_perm(u32 a, u32 b, u32 selector) { return __byte_perm(a, b, selector); }
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
DEVICE_FN u32 warp_clz(u32 x) { return clz(x); }
DEVICE_FN u32 warp_shuffle(u32 v, u32 src) {
  u32 r;
  __asm__ __volatile__("shfl.sync.idx.b32 %0, %1, %2, 0x1f, 0xffffffff;" : "=r"(r) : "r"(v), "r"(src));
  return r;
}
DEVICE_FN u32 warp_shuffle_up(u32 v, u32 delta) {
  u32 r;
  __asm__ __volatile__("shfl.sync.up.b32 %0, %1, %2, 0x0, 0xffffffff;" : "=r"(r) : "r"(v), "r"(delta));
  return r;
}
DEVICE_FN u32 byte_perm(u32 a, u32 b, u32 selector) {
  u32 r;
  __asm__("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector));
  return r;
}
#endif

// lane src's 64-bit v, as two shuffles
DEVICE_FN u64 warp_shuffle_u64(u64 v, u32 src) {
  return ((u64)warp_shuffle((u32)(v >> 32), src) << 32) | (u64)warp_shuffle((u32)v, src);
}

// The inclusive prefix sum of v over the warp's lanes (lane: this work-item's lane, 0..31).
DEVICE_FN u32 warp_inclusive_sum_u32(u32 v, u32 lane) {
#pragma unroll
  for (u32 off = 1; off < 32u; off <<= 1) {
    const u32 up = warp_shuffle_up(v, off);
    if (lane >= off) v += up;
  }
  return v;
}

#endif  // GPUSORT_NVIDIA_OPS_H
