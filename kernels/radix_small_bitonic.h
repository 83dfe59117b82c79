// CUDA, integer keys of up to 32 bits without values, up to 4096 keys: one block sorts them with a
// bitonic network in registers (radix_small_bitonic_<log2 N>; the host's SingleTilePolicy::bitonic_log2).
// For keys alone a comparison network gives the radix sort's output exactly: equal integer keys are
// equal bits, so no order among them can be seen (floats are left to the single tile: -0/+0 and NaN
// payloads are equal keys with different bits, and the radix sort keeps their order). Where the radix
// single tile spends four passes of ranking, ballots and barriers on a few thousand keys, the network
// costs log2(N) (log2(N) + 1) / 2 compare-exchange steps, almost all inside a warp.
//
// N = 2^LOG_N keys (n padded with all ones, which sort last and are not stored), N / 4 threads;
// thread t holds positions 4t .. 4t + 3: a position's bits 0-1 select the register, bits 2-6 the
// lane and bits 7 and up the warp. The network is the one of bitonic_network.h (every comparator
// puts the smaller key lower; a stage's first step pairs each position with its mirror): a step whose
// partner differs only in bits 0-1 is a register step, one that reaches into bits 2-6 a warp shuffle,
// one that reaches bit 7 or up an exchange through shared memory (two buffers used in turn, so one
// barrier per such step: a buffer is written again only after the next barrier). The keys travel as
// ordered_key images, which for integer keys are the key XOR a constant (ordered_key(0, flip)).
#ifndef GPUSORT_RADIX_SMALL_BITONIC_H
#define GPUSORT_RADIX_SMALL_BITONIC_H
#include "keys.h"

#if KEY_KIND != 2 && KEY_BITS <= 32 && !HAS_VALUES
// Step (S, JJ) of the network over 2^LOG_N keys, then the ones after it; BUF: the shared buffer the
// next exchange through shared memory uses.
template <u32 LOG_N, u32 S, u32 JJ, u32 BUF>
DEVICE_FN void small_bitonic_steps(u32 (&v)[4], u32* smem, u32 t) {
  constexpr u32 TOP = 1u << JJ;                                // the partner's highest differing bit
  constexpr u32 MASK = JJ + 1 == S ? (1u << S) - 1u : TOP;     // mirror (first step of a stage) or half-cleaner
  constexpr u32 REG_MASK = MASK & 3u, THREAD_MASK = MASK >> 2;  // the partner: register r ^ REG_MASK of thread t ^ THREAD_MASK
  constexpr bool VIA_SHARED = TOP >= 128u;
  if constexpr (TOP < 4u) {
#pragma unroll
    for (u32 r = 0; r < 4; ++r) {
      if ((r & TOP) == 0u) {  // r is the lower of its pair
        const u32 q = r ^ REG_MASK, lo = gs_min_u32(v[r], v[q]), hi = gs_max_u32(v[r], v[q]);
        v[r] = lo;
        v[q] = hi;
      }
    }
  } else {
    u32 w[4];
    if constexpr (VIA_SHARED) {
      u32* b = smem + (BUF << LOG_N);
#pragma unroll
      for (u32 r = 0; r < 4; ++r) b[4u * t + r] = v[r];
      __syncthreads();
#pragma unroll
      for (u32 r = 0; r < 4; ++r) w[r] = b[4u * (t ^ THREAD_MASK) + (r ^ REG_MASK)];
    } else {
#pragma unroll
      for (u32 r = 0; r < 4; ++r) w[r] = __shfl_xor_sync(0xFFFFFFFFu, v[r ^ REG_MASK], THREAD_MASK);
    }
    const bool lower = (t & (TOP >> 2)) == 0u;  // this thread's positions are the lower of their pairs
#pragma unroll
    for (u32 r = 0; r < 4; ++r) v[r] = lower ? gs_min_u32(v[r], w[r]) : gs_max_u32(v[r], w[r]);
  }
  constexpr u32 NEXT_BUF = VIA_SHARED ? 1u - BUF : BUF;
  if constexpr (JJ > 0) {
    small_bitonic_steps<LOG_N, S, JJ - 1, NEXT_BUF>(v, smem, t);
  } else if constexpr (S < LOG_N) {
    small_bitonic_steps<LOG_N, S + 1, S, NEXT_BUF>(v, smem, t);
  }
}

template <u32 LOG_N>
DEVICE_FN void small_bitonic_body(u32* smem, key_t* keys, u32 n, okey_t flip) {
  const u32 t = threadIdx.x;
  u32 v[4];
#pragma unroll
  for (u32 r = 0; r < 4; ++r) {
    const u32 p = 4u * t + r;
    v[r] = p < n ? (u32)ordered_key(keys[p], flip) : 0xFFFFFFFFu;
  }
  small_bitonic_steps<LOG_N, 1, 0, 0>(v, smem, t);
  const u32 back = (u32)ordered_key((key_t)0, flip);  // ordered_key(k) == k ^ back for integer keys
#pragma unroll
  for (u32 r = 0; r < 4; ++r) {
    const u32 p = 4u * t + r;
    if (p < n) keys[p] = (key_t)(v[r] ^ back);
  }
}

// radix_small_bitonic_<LOG_N>: N = 2^LOG_N keys at most, N / 4 threads, 2 N words of static shared
// memory (N >= 256; below it no step leaves a warp)
#define GS_SMALL_BITONIC_KERNEL(LOG_N)                                                              \
  KERNEL __launch_bounds__(1u << (LOG_N - 2)) radix_small_bitonic_##LOG_N(key_t* keys, u32 n, okey_t flip) { \
    __shared__ u32 smem[LOG_N >= 8 ? 2u << LOG_N : 1u];                                              \
    small_bitonic_body<LOG_N>(smem, keys, n, flip);                                                  \
  }
GS_SMALL_BITONIC_KERNEL(7)
GS_SMALL_BITONIC_KERNEL(8)
GS_SMALL_BITONIC_KERNEL(9)
GS_SMALL_BITONIC_KERNEL(10)
GS_SMALL_BITONIC_KERNEL(11)
GS_SMALL_BITONIC_KERNEL(12)
#undef GS_SMALL_BITONIC_KERNEL
#endif

#endif  // GPUSORT_RADIX_SMALL_BITONIC_H
