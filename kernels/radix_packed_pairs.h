// Packed pairs (CUDA onesweep passes, ONESWEEP_PACKED_IN / ONESWEEP_PACKED_OUT from the host; 4-byte
// keys with 4-byte values staged apart): the pass reads / writes the pairs packed, key in the low
// word of one 8-byte element, so that the passes between the first and the last move one 8-byte word
// per pair (one load and one store instruction instead of two: a 64-bit key pass moves the same bytes
// as a u32/u32 pass in 1.57 ms instead of 1.78 on the H200). A packed array lives in the same buffer
// pair (K, V) of 4n bytes each as the unpacked one: radix_packed_key_word / radix_packed_store say
// where element e is.
#ifndef GPUSORT_RADIX_PACKED_PAIRS_H
#define GPUSORT_RADIX_PACKED_PAIRS_H
#include "radix_common.h"

#if ONESWEEP_PACKED_IN || ONESWEEP_PACKED_OUT
#if !(HAS_VALUES && ONESWEEP_SPLIT_STAGE && KEY_BITS == 32 && VALUE_BYTES == 4)
#error "packed pairs are 4-byte keys with 4-byte values staged apart"
#endif
// Pairs a packed-input pass loads at a time per thread. H200, u32/u32 2^28 (lab/notes/radix-tuning.md): 8 ->
// 7.27 ms, 16 -> 7.19, 32 (all at once; ptxas spills 72 bytes) -> 7.51; 4-byte key loads with 4-byte
// cp.async copies of the values instead: 8.17 (unpacked: 7.61-7.64).
#define ONESWEEP_PACKED_BATCH 16

// Packed element e of n in the buffers K and V (4n bytes each, 8-byte aligned): e < h = n / 2 in K
// as 8-byte words, h <= e < 2h in V, and for odd n the last element unpacked in the last 4 bytes of
// K (key) and V (value), which no 8-byte word covers. radix_packed_key_word: the key's 4-byte word
// (the value's is the next word for e < 2h, V + e for the odd last pair).
DEVICE_FN const u32* radix_packed_key_word(const u32* K, const u32* V, u64 h, u64 e) {
  return e < h ? K + 2u * e : e < 2u * h ? V + 2u * (e - h) : K + e;
}
DEVICE_FN void radix_packed_store(u32* K, u32* V, u64 h, u64 e, u32 k, u32 v) {
  if (e < 2u * h) {
    u64* dst = e < h ? (u64*)K + e : (u64*)V + (e - h);
    *dst = (u64)k | ((u64)v << 32);
  } else {
    K[e] = k;
    V[e] = v;
  }
}

// A warp's stripe of ITEMS x 32 packed pairs from `stripe` on (in_stripe of them valid): keys into k,
// values into v (the ranking stages each value with its key). 8-byte loads, ONESWEEP_PACKED_BATCH
// items at a time: 2 registers each while in flight.
DEVICE_FN void radix_packed_load_stripe(key_t* k, value_t* v, const key_t* keys_in, const value_t* values_in, u64 n,
                                        u64 stripe, u32 in_stripe, u32 lane) {
  const u64 half = n / 2u, stripe_end = stripe + in_stripe;
  if (stripe_end <= half || (stripe >= half && stripe_end <= 2u * half)) {  // within one buffer
    const u64* eb = stripe < half ? (const u64*)keys_in + stripe : (const u64*)values_in + (stripe - half);
#pragma unroll
    for (u32 b = 0; b < ITEMS; b += ONESWEEP_PACKED_BATCH) {
      u64 e[ONESWEEP_PACKED_BATCH];
#pragma unroll
      for (u32 j = 0; j < ONESWEEP_PACKED_BATCH; ++j)
        if (b + j < ITEMS && (b + j) * 32u + lane < in_stripe) e[j] = eb[(b + j) * 32u + lane];
#pragma unroll
      for (u32 j = 0; j < ONESWEEP_PACKED_BATCH; ++j)
        if (b + j < ITEMS && (b + j) * 32u + lane < in_stripe) {
          k[b + j] = (key_t)(u32)e[j];
          v[b + j] = (value_t)(u32)(e[j] >> 32);
        }
    }
  } else {
    // the stripe that crosses from K to V, or holds the odd last pair (one or two per pass): one
    // word at a time (a batched 8-byte form here was slower)
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i)
      if (i * 32u + lane < in_stripe) {
        const u64 e = stripe + i * 32u + lane;
        const u32* kw = radix_packed_key_word((const u32*)keys_in, (const u32*)values_in, half, e);
        const u32* vw = e < 2u * half ? kw + 1 : (const u32*)values_in + e;
        k[i] = (key_t)*kw;
        v[i] = (value_t)*vw;
      }
  }
}
#endif

#endif  // GPUSORT_RADIX_PACKED_PAIRS_H
