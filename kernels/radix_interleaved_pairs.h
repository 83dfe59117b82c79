// Interleaved pairs (CUDA, 4-byte keys with 4-byte values): the layout in which the last onesweep pass
// of the segments (ONESWEEP_PACKED_OUT 2, radix_onesweep_phases.h) leaves the pairs for
// radix_segments.cl. K and V are the keys' and values' buffers (4n bytes each, 8-byte aligned). Pairs
// come in blocks of 32, [32q, 32q + 32): the first 16 as 8-byte words (key in the low half) in
// K[32q, 32q + 32), the other 16 in V[32q, 32q + 32); the pairs after the last whole block (n % 32 of
// them) are unpacked, at K + e and V + e. So the pass stores one word per pair in runs as long as the
// packed passes' (radix_packed_pairs.h), and every pair's words lie in the block where its unpacked key
// and value go: pairs [s + 31, t - 32] of a segment [s, t) lie within K[s, t) and V[s, t), and a block
// unpacks them in place without touching another segment's words. The 32 pairs at each end of a
// segment may not: radix_segment_starts copies them aside before any block unpacks.
#ifndef GPUSORT_RADIX_INTERLEAVED_PAIRS_H
#define GPUSORT_RADIX_INTERLEAVED_PAIRS_H
#include "radix_common.h"

#define INTERLEAVED_BLOCK 32u  // pairs per block; a segment's end pairs copied aside: as many at each end

// Pair e's word's offset in 4-byte units from K (bit 4 of e clear) or V (set); e below the unpacked tail.
DEVICE_FN u64 radix_interleaved_offset(u64 e) { return (e & ~(u64)31u) + 2u * (e & 15u); }
// The first unpacked pair: n rounded down to whole blocks.
DEVICE_FN u64 radix_interleaved_tail(u64 n) { return n & ~(u64)31u; }

DEVICE_FN void radix_interleaved_store(u32* K, u32* V, u64 n, u64 e, u32 k, u32 v) {
  if (e >= radix_interleaved_tail(n)) {
    K[e] = k;
    V[e] = v;
  } else {
    *(u64*)(((e & 16u) ? V : K) + radix_interleaved_offset(e)) = (u64)k | ((u64)v << 32);
  }
}
// Pair e (any e < n) as its word: key in the low half.
DEVICE_FN u64 radix_interleaved_load(const u32* K, const u32* V, u64 n, u64 e) {
  if (e >= radix_interleaved_tail(n)) return (u64)K[e] | ((u64)V[e] << 32);
  return *(const u64*)(((e & 16u) ? V : K) + radix_interleaved_offset(e));
}

#endif  // GPUSORT_RADIX_INTERLEAVED_PAIRS_H
