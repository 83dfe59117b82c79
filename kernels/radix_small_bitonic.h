// CUDA, up to 4096 keys (or pairs with keys of up to 32 bits): one block sorts them with a bitonic
// network in registers (radix_small_bitonic_<log2 N>; the host's SingleTilePolicy::bitonic_log2).
// Where the radix single tile spends a pass of ranking, ballots and barriers per digit on a few
// thousand keys, the network costs log2(N) (log2(N) + 1) / 2 compare-exchange steps, almost all
// inside a warp. Its output is the radix sort's, bit for bit:
//   - integer keys alone: equal keys are equal bits, so no order among them can be seen; the network
//     sorts ordered_key images (the key XOR a constant) and turns them back;
//   - float keys alone: without -0 and NaN (the block checks, as the single tile does) the plain
//     sign flip is a bijection and the network sorts its images. With them, the images of -0/+0 are
//     equal, and so are those of all NaNs, while the radix sort keeps such keys in input order: the
//     network sorts images spread so that each such key's image holds its input position, which
//     gives its bits back after the network (radix_float_flip.h, radix_spread_float_image);
//   - pairs with keys of up to 32 bits: the network sorts (image << 32 | input position), which is
//     the stable order, and each output position gathers its key and value from the input position.
// 64-bit keys with values are left to the single tile (image and position do not fit one word).
//
// N = 2^LOG_N elements (n padded with all ones, which sort last and are not stored), N / 4 threads;
// thread t holds positions 4t .. 4t + 3: a position's bits 0-1 select the register, bits 2-6 the
// lane and bits 7 and up the warp. The network is the one of bitonic_network.h (every comparator
// puts the smaller element lower; a stage's first step pairs each position with its mirror): a step
// whose partner differs only in bits 0-1 is a register step, one that reaches into bits 2-6 a warp
// shuffle, one that reaches bit 7 or up an exchange through shared memory (two buffers used in turn,
// so one barrier per such step: a buffer is written again only after the next barrier).
#ifndef GPUSORT_RADIX_SMALL_BITONIC_H
#define GPUSORT_RADIX_SMALL_BITONIC_H
#include "keys.h"
#include "radix_float_flip.h"

#if !HAS_VALUES || KEY_BITS <= 32
#define SMALL_BITONIC 1
#if HAS_VALUES || KEY_BITS == 64
typedef u64 bitonic_t;  // pairs: (ordered_key << 32) | input position; 64-bit keys: the key's image
#define bitonic_min gs_min_u64
#define bitonic_max gs_max_u64
#else
typedef u32 bitonic_t;  // the key's image
#define bitonic_min gs_min_u32
#define bitonic_max gs_max_u32
#endif
#define BITONIC_PAD (~(bitonic_t)0)
#else
#define SMALL_BITONIC 0
#endif

#if SMALL_BITONIC

// Step (S, JJ) of the network over 2^LOG_N elements, then the ones after it; BUF: the shared buffer
// the next exchange through shared memory uses.
template <u32 LOG_N, u32 S, u32 JJ, u32 BUF>
DEVICE_FN void small_bitonic_steps(bitonic_t (&v)[4], bitonic_t* smem, u32 t) {
  constexpr u32 TOP = 1u << JJ;                                // the partner's highest differing bit
  constexpr u32 MASK = JJ + 1 == S ? (1u << S) - 1u : TOP;     // mirror (first step of a stage) or half-cleaner
  constexpr u32 REG_MASK = MASK & 3u, THREAD_MASK = MASK >> 2;  // the partner: register r ^ REG_MASK of thread t ^ THREAD_MASK
  constexpr bool VIA_SHARED = TOP >= 128u;
  if constexpr (TOP < 4u) {
#pragma unroll
    for (u32 r = 0; r < 4; ++r) {
      if ((r & TOP) == 0u) {  // r is the lower of its pair
        const u32 q = r ^ REG_MASK;
        const bitonic_t lo = bitonic_min(v[r], v[q]), hi = bitonic_max(v[r], v[q]);
        v[r] = lo;
        v[q] = hi;
      }
    }
  } else {
    bitonic_t w[4];
    if constexpr (VIA_SHARED) {
      bitonic_t* b = smem + (BUF << LOG_N);
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
    for (u32 r = 0; r < 4; ++r) v[r] = lower ? bitonic_min(v[r], w[r]) : bitonic_max(v[r], w[r]);
  }
  constexpr u32 NEXT_BUF = VIA_SHARED ? 1u - BUF : BUF;
  if constexpr (JJ > 0) {
    small_bitonic_steps<LOG_N, S, JJ - 1, NEXT_BUF>(v, smem, t);
  } else if constexpr (S < LOG_N) {
    small_bitonic_steps<LOG_N, S + 1, S, NEXT_BUF>(v, smem, t);
  }
}

template <u32 LOG_N>
DEVICE_FN void small_bitonic_body(bitonic_t* smem, const key_t* keys_in, const value_t* values_in, key_t* keys,
                                  value_t* values, u32 n, okey_t flip, u32 positions) {
  const u32 t = threadIdx.x;
  key_t k[4];
#pragma unroll
  for (u32 r = 0; r < 4; ++r) k[r] = 4u * t + r < n ? keys_in[4u * t + r] : (key_t)0;
  bitonic_t v[4];
#if !HAS_VALUES
  (void)values_in, (void)values, (void)positions;  // keys alone: the host passes the keys again
#endif
#if HAS_VALUES
#pragma unroll
  for (u32 r = 0; r < 4; ++r) {
    const u32 p = 4u * t + r;
    v[r] = p < n ? (bitonic_t)ordered_key(k[r], flip) << 32 | p : BITONIC_PAD;
  }
  small_bitonic_steps<LOG_N, 1, 0, 0>(v, smem, t);
  // every output position's pair from its input position; all read before any is written (in place)
  key_t ko[4];
  value_t vo[4];
#pragma unroll
  for (u32 r = 0; r < 4; ++r) {
    if (4u * t + r < n) {
      const u32 from = (u32)v[r];
      ko[r] = keys_in[from];
      vo[r] = radix_input_value(values_in, from, positions);
    }
  }
  __syncthreads();
#pragma unroll
  for (u32 r = 0; r < 4; ++r) {
    if (4u * t + r < n) {
      keys[4u * t + r] = ko[r];
      values[4u * t + r] = vo[r];
    }
  }
#elif KEY_KIND == 2
  // Blocks without -0 and NaN (the block checks) move plain-flip images: fewer instructions per key
  // and no barrier at the end, on a kernel whose issue rate on one SM is much of its time.
  u32 odd = 0;  // a key of this thread is -0 or NaN
#pragma unroll
  for (u32 r = 0; r < 4; ++r)
    if (4u * t + r < n) odd |= (u32)radix_float_special(k[r]);
  const bool plain = !__syncthreads_or((int)odd);
  constexpr okey_t ROOM = (okey_t)1 << LOG_N;  // spread images: input positions < n <= N
  if (plain) {  // one branch for the block, not one per key
#pragma unroll
    for (u32 r = 0; r < 4; ++r) v[r] = 4u * t + r < n ? radix_plain_float_key(k[r], flip) : BITONIC_PAD;
  } else {
#pragma unroll
    for (u32 r = 0; r < 4; ++r)
      v[r] = 4u * t + r < n ? radix_spread_float_image(k[r], 4u * t + r, flip, ROOM) : BITONIC_PAD;
  }
  small_bitonic_steps<LOG_N, 1, 0, 0>(v, smem, t);
  if (plain) {
#pragma unroll
    for (u32 r = 0; r < 4; ++r) k[r] = radix_plain_float_key_inverse(v[r], flip);
  } else {
#pragma unroll
    for (u32 r = 0; r < 4; ++r)
      if (4u * t + r < n) {
        const u32 from = radix_spread_input_position(v[r], flip, ROOM);
        k[r] = from != RADIX_NOT_SPREAD ? keys_in[from] : radix_spread_float_key(v[r], flip, ROOM);
      }
    __syncthreads();  // -0s and NaNs were read from their input positions (in place: before any write)
  }
#pragma unroll
  for (u32 r = 0; r < 4; ++r)
    if (4u * t + r < n) keys[4u * t + r] = k[r];
#else
#pragma unroll
  for (u32 r = 0; r < 4; ++r) v[r] = 4u * t + r < n ? ordered_key(k[r], flip) : BITONIC_PAD;
  small_bitonic_steps<LOG_N, 1, 0, 0>(v, smem, t);
#pragma unroll
  for (u32 r = 0; r < 4; ++r)
    if (4u * t + r < n) keys[4u * t + r] = radix_integer_key(v[r], flip);
#endif
}

#undef bitonic_min
#undef bitonic_max
#endif

#endif  // GPUSORT_RADIX_SMALL_BITONIC_H
