// LSD radix sort, portable path (OpenCL on PoCL / any GPU, and CUDA as a fallback): per pass a
// count, a scan and a stable scatter. Correctness over speed; the CUDA fast path is radix_onesweep.cl.
//
// The keys are split into NUM_GROUPS() contiguous spans of whole tiles (TILE = GROUP_SIZE * ITEMS
// keys); group g always handles span g, so the digit-major table counts[d * groups + g] scanned
// exclusively gives where group g's first key of digit d goes.
//   radix_histogram (radix_common.h)  every pass's digit histogram at once (for pass skipping)
//   radix_count     counts[d * groups + g] = keys of span g with digit d (this pass)
//   radix_scan      one work-group: exclusive prefix sum of counts in place, any length
//   radix_scatter   each group walks its span tile by tile; a key's rank among the tile's keys of
//                   its digit comes from per-work-item counters (serial over the item's ITEMS
//                   consecutive keys) scanned digit-major across the group: input order is kept.
// Specialised by radix_common.h's defines and ITEMS (keys per work-item in radix_scatter).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 GROUP_SIZE=64 ITEMS=16
#include "radix_common.h"

#ifndef ITEMS
#error "ITEMS must be defined"
#endif
#define TILE (GROUP_SIZE * ITEMS)
#define SCAN_ITEMS 16

KERNEL radix_count(GLOBAL const key_t* keys, u64 n, okey_t flip, u32 shift, u64 span, GLOBAL u64* counts) {
  LOCAL_ARRAY u32 local_counts[RADIX];
  const u32 t = LOCAL_ID();
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) local_counts[d] = 0;
  BARRIER();
  const u64 begin = GROUP_ID() * span;
  const u64 end = gs_min_u64(n, begin + span);
  for (u64 i = begin + t; i < end; i += GROUP_SIZE) ATOMIC_ADD_U32(&local_counts[radix_digit(keys[i], flip, shift)], 1u);
  BARRIER();
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) counts[(u64)d * NUM_GROUPS() + GROUP_ID()] = local_counts[d];
}

// Exclusive scan of m u64 entries in place by one work-group of GROUP_SIZE items.
KERNEL radix_scan(GLOBAL u64* data, u64 m) {
  LOCAL_ARRAY u64 sums[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  u64 carry = 0;
  for (u64 base = 0; base < m; base += (u64)GROUP_SIZE * SCAN_ITEMS) {
    const u64 first = base + (u64)t * SCAN_ITEMS;
    u64 s = 0;
    for (u32 j = 0; j < SCAN_ITEMS; ++j)
      if (first + j < m) s += data[first + j];
    sums[t] = s;
    BARRIER();
    for (u32 off = 1; off < GROUP_SIZE; off <<= 1) {  // Hillis-Steele inclusive scan
      u64 add = t >= off ? sums[t - off] : 0;
      BARRIER();
      sums[t] += add;
      BARRIER();
    }
    u64 run = carry + (t > 0 ? sums[t - 1] : 0);
    for (u32 j = 0; j < SCAN_ITEMS; ++j)
      if (first + j < m) {
        u64 v = data[first + j];
        data[first + j] = run;
        run += v;
      }
    carry += sums[GROUP_SIZE - 1];
    BARRIER();
  }
}

KERNEL radix_scatter(GLOBAL const key_t* keys_in, GLOBAL const value_t* values_in, GLOBAL key_t* keys_out,
                     GLOBAL value_t* values_out, u64 n, okey_t flip, u32 shift, u64 span,
                     GLOBAL const u64* offsets) {
  LOCAL_ARRAY u16 cnt[RADIX * GROUP_SIZE];  // [digit][work-item], then its exclusive scan
  LOCAL_ARRAY u64 run[RADIX];               // where the span's next key of each digit goes
  LOCAL_ARRAY u32 strip[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  for (u32 d = t; d < RADIX; d += GROUP_SIZE) run[d] = offsets[(u64)d * NUM_GROUPS() + GROUP_ID()];
  const u64 begin = GROUP_ID() * span;
  const u64 end = gs_min_u64(n, begin + span);
  for (u64 tile = begin; tile < end; tile += TILE) {
    const u32 valid = (u32)gs_min_u64((u64)TILE, end - tile);
    key_t k[ITEMS];
    u32 dig[ITEMS];
    u32 rank[ITEMS];
#if HAS_VALUES
    value_t v[ITEMS];
#endif
    for (u32 f = t; f < RADIX * GROUP_SIZE; f += GROUP_SIZE) cnt[f] = 0;
    BARRIER();
    for (u32 i = 0; i < ITEMS; ++i) {
      const u32 p = t * ITEMS + i;
      dig[i] = RADIX;  // sentinel: past the end
      rank[i] = 0;
      if (p < valid) {
        k[i] = keys_in[tile + p];
#if HAS_VALUES
        v[i] = values_in[tile + p];
#endif
        dig[i] = radix_digit(k[i], flip, shift);
        const u32 f = dig[i] * GROUP_SIZE + t;
        rank[i] = cnt[f];
        cnt[f] = (u16)(rank[i] + 1);
      }
    }
    BARRIER();
    u32 s = 0;  // digit-major exclusive scan: each item its strip of RADIX counters, then the strips
    for (u32 j = 0; j < RADIX; ++j) {
      const u32 f = t * RADIX + j;
      const u32 c = cnt[f];
      cnt[f] = (u16)s;
      s += c;
    }
    strip[t] = s;
    BARRIER();
    if (t == 0) {
      u32 acc = 0;
      for (u32 j = 0; j < GROUP_SIZE; ++j) {
        const u32 c = strip[j];
        strip[j] = acc;
        acc += c;
      }
    }
    BARRIER();
    for (u32 j = 0; j < RADIX; ++j) cnt[t * RADIX + j] = (u16)(cnt[t * RADIX + j] + strip[t]);
    BARRIER();
    // cnt[d * GROUP_SIZE + t] = tile keys before work-item t's first key of digit d, in tile order
    for (u32 i = 0; i < ITEMS; ++i) {
      if (dig[i] < RADIX) {
        const u32 d = dig[i];
        const u32 pos = (u32)cnt[d * GROUP_SIZE + t] + rank[i];
        const u64 dst = run[d] + (pos - (u32)cnt[d * GROUP_SIZE]);
        keys_out[dst] = k[i];
#if HAS_VALUES
        values_out[dst] = v[i];
#endif
      }
    }
    BARRIER();
    for (u32 d = t; d < RADIX; d += GROUP_SIZE) {
      const u32 next = d + 1 < RADIX ? (u32)cnt[(d + 1) * GROUP_SIZE] : valid;
      run[d] += next - (u32)cnt[d * GROUP_SIZE];
    }
    BARRIER();
  }
}
