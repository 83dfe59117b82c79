// The up-front histogram of the portable radix programs (radix_passes.cl, radix_onesweep_portable.cl):
// every pass's digit counts from one read of the keys, for skipping passes whose digit is constant.
// NVIDIA GPUs' onesweep program has its own (radix_lane_histogram.h).
// Specialised by radix_common.h's defines and GROUP_SIZE (work-items per group).
#ifndef GPUSORT_RADIX_HISTOGRAM_H
#define GPUSORT_RADIX_HISTOGRAM_H
#include "radix_common.h"

#ifndef GROUP_SIZE
#error "GROUP_SIZE must be defined"
#endif

// hist[p * RADIX + d] += number of keys whose digit p is d, for every pass p at once. Group g
// reads keys [g * span, (g + 1) * span); hist is zeroed by the host (u64 counts: n may pass 2^32).
KERNEL radix_histogram(GLOBAL const key_t* keys, u64 n, okey_t flip, u64 span, GLOBAL u64* hist) {
  LOCAL_ARRAY u32 counts[RADIX_PASSES * RADIX];
  const u32 t = LOCAL_ID();
  for (u32 i = t; i < RADIX_PASSES * RADIX; i += LOCAL_SIZE()) counts[i] = 0;
  BARRIER();
  const u64 begin = GROUP_ID() * span;
  const u64 end = gs_min_u64(n, begin + span);
  const u32 stride = LOCAL_SIZE();
  for (u64 i = begin + t; i < end; i += 4u * stride) {  // four loads in flight per work-item
    key_t k[4];
    for (u32 j = 0; j < 4; ++j)
      if (i + j * stride < end) k[j] = keys[i + j * stride];
    for (u32 j = 0; j < 4; ++j) {
      if (i + j * stride < end) {
        const okey_t o = ordered_key(k[j], flip);
        for (u32 p = 0; p < RADIX_PASSES; ++p)
          ATOMIC_ADD_U32(&counts[p * RADIX + ((u32)(o >> (p * RADIX_BITS)) & RADIX_MASK)], 1u);
      }
    }
  }
  BARRIER();
  for (u32 i = t; i < RADIX_PASSES * RADIX; i += LOCAL_SIZE())
    if (counts[i] != 0) ATOMIC_ADD_U64(&hist[i], (u64)counts[i]);
}

#endif  // GPUSORT_RADIX_HISTOGRAM_H
