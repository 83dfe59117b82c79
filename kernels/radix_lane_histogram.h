// All-digit histogram of the onesweep path (radix_onesweep.cl; NVIDIA GPUs, CUDA and OpenCL), a
// faster radix_histogram (radix_histogram.h): 16-byte loads, four in flight per thread, and lane-private
// counters so that a warp's shared atomics never collide in a bank (the scalar kernel's random bins
// cost ~3.5-way bank conflicts per atomic). Counters are u16 halves of u32 words: word (pass, d / 2,
// copy) with copy = lane % HL_COPIES (RADIX_HIST_COPIES from the host: on CUDA 32, or 16 for more
// than four passes, 64 KiB of dynamic local memory either way; 16 (32 KiB) for 4-byte keys alone from
// 2^21 to below 2^24 keys, kHistCopies16Keys4From in radix_policy.cpp; under OpenCL's 48 KiB half as many).
// The host keeps a span below 2^19 keys and 2^15 keys per copy, so a copy counts < 2^15 + 16 keys
// (no u16 overflow). Float keys: also sets hist[RADIX_PASSES * RADIX] when some key is -0 or NaN
// (radix_float_flip.h).
#ifndef GPUSORT_RADIX_LANE_HISTOGRAM_H
#define GPUSORT_RADIX_LANE_HISTOGRAM_H
#include "radix_common.h"
#include "radix_float_flip.h"

#if RADIX_BITS != 8
#error "radix_histogram_lanes packs 8-bit digits"
#endif
#ifndef RADIX_HIST_COPIES
#error "RADIX_HIST_COPIES must be defined (src/algorithms/radix_policy.cpp)"
#endif
#define HL_COPIES ((u32)RADIX_HIST_COPIES)
#define HL_WORDS (RADIX / 2u * HL_COPIES)  // per pass
#define HL_KPV (16 / (KEY_BITS / 8))       // keys per 16-byte load
DEVICE_FN void radix_hist_lane_count(LOCAL u32* c, u32 lc, key_t k, okey_t flip, u32* odd) {
  const okey_t o = ordered_key(k, flip);
#if KEY_KIND == 2
  *odd |= (u32)(o != radix_plain_float_key(k, flip));
#endif
#pragma unroll
  for (u32 p = 0; p < RADIX_PASSES; ++p) {
    const u32 d = (u32)(o >> (p * RADIX_BITS)) & RADIX_MASK;
    ATOMIC_ADD_U32(&c[p * HL_WORDS + (d >> 1) * HL_COPIES + lc], 1u << ((d & 1u) * 16u));
  }
}
// Counts keys [begin, end) into the lane counters c (zeroed by the caller, RADIX_PASSES * HL_WORDS
// words): 16-byte loads where the keys allow, the unaligned head and tail one key at a time. Returns
// whether a key of this thread is -0 or NaN (float keys). Every thread of the group calls it.
DEVICE_FN u32 radix_hist_lanes_count(LOCAL u32* c, GLOBAL const key_t* RESTRICT keys, u64 begin, u64 end, okey_t flip) {
  const u32 t = LOCAL_ID(), lc = t & (HL_COPIES - 1u);
  u64 vbegin = (begin + HL_KPV - 1) / HL_KPV, vend = end / HL_KPV;
  if ((((u64)keys) & 15u) != 0 || vend < vbegin) vend = vbegin;  // unaligned: scalar loop only
  typedef union {
    uint4 v;
    key_t k[HL_KPV];
  } vec_t;
  GLOBAL const uint4* kv = (GLOBAL const uint4*)keys;
  u32 odd = 0;  // float keys: a key of this thread is -0 or NaN
  for (u64 i = vbegin + t; i < vend; i += 4u * GROUP_SIZE) {
    vec_t x[4];
#pragma unroll
    for (u32 j = 0; j < 4; ++j)
      if (i + j * GROUP_SIZE < vend) x[j].v = kv[i + j * GROUP_SIZE];
#pragma unroll
    for (u32 j = 0; j < 4; ++j)
      if (i + j * GROUP_SIZE < vend) {
#pragma unroll
        for (u32 q = 0; q < HL_KPV; ++q) radix_hist_lane_count(c, lc, x[j].k[q], flip, &odd);
      }
  }
  // keys outside the whole vectors: the span's unaligned head and tail
  for (u64 i = begin + t; i < gs_min_u64(end, vbegin * HL_KPV); i += GROUP_SIZE) radix_hist_lane_count(c, lc, keys[i], flip, &odd);
  for (u64 i = gs_max_u64(begin, vend * HL_KPV) + t; i < end; i += GROUP_SIZE) radix_hist_lane_count(c, lc, keys[i], flip, &odd);
  return odd;
}

// Adds the lane counters' sums to hist[pass * RADIX + digit] (after a barrier; zero sums skipped).
DEVICE_FN void radix_hist_lanes_flush(const LOCAL u32* c, GLOBAL u64* RESTRICT hist) {
  for (u32 i = LOCAL_ID(); i < RADIX_PASSES * RADIX; i += GROUP_SIZE) {
    const u32 p = i / RADIX, d = i % RADIX;
    const LOCAL u32* row = c + p * HL_WORDS + (d >> 1) * HL_COPIES;
    u32 sum = 0;
    for (u32 j = 0; j < HL_COPIES; ++j) sum += (row[(j + d) & (HL_COPIES - 1u)] >> ((d & 1u) * 16u)) & 0xFFFFu;
    if (sum != 0) ATOMIC_ADD_U64(&hist[i], sum);
  }
}

#if GS_CUDA
#define HL_BOUNDS __launch_bounds__(GROUP_SIZE)
#else
#define HL_BOUNDS
#endif
KERNEL HL_BOUNDS
radix_histogram_lanes(GLOBAL const key_t* RESTRICT keys, u64 n, okey_t flip, u64 span,
                      GLOBAL u64* RESTRICT hist GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u32, c);
  const u32 t = LOCAL_ID();
  for (u32 i = t; i < RADIX_PASSES * HL_WORDS; i += GROUP_SIZE) c[i] = 0;
#if KEY_KIND == 2 && !GS_CUDA
  LOCAL_ARRAY u32 any_odd;  // some key of the group is -0 or NaN (CUDA: __syncthreads_or)
  if (t == 0) any_odd = 0;
#endif
  BARRIER();
  const u64 begin = GROUP_ID() * span;
  const u32 odd = radix_hist_lanes_count(c, keys, begin, gs_min_u64(n, begin + span), flip);
#if KEY_KIND == 2 && GS_CUDA
  if (__syncthreads_or((int)odd) && t == 0) ATOMIC_ADD_U64(&hist[RADIX_PASSES * RADIX], 1u);
#elif KEY_KIND == 2
  if (odd) any_odd = 1u;
  BARRIER();
  if (any_odd && t == 0) ATOMIC_ADD_U64(&hist[RADIX_PASSES * RADIX], 1u);
#else
  (void)odd;
  BARRIER();
#endif
#if ONESWEEP_ALLOW_NEXT
  GS_ALLOW_NEXT_GRID();  // the first pass's blocks may start once every block is here (they wait for our end)
#endif
  radix_hist_lanes_flush(c, hist);
}

#endif  // GPUSORT_RADIX_LANE_HISTOGRAM_H
