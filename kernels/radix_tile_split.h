// A tile of keys sorted by one 8-bit digit in local memory, for the portable radix kernels
// (radix_passes.cl's scatter, radix_onesweep_portable.cl): no sub-group operations, so any OpenCL
// device (PoCL included) runs it. Also the exclusive scan of a tile's RADIX digit counts.
//
// Needs radix_common.h's defines, GROUP_SIZE, ITEMS and TILE (= GROUP_SIZE * ITEMS keys, at most
// 65536, since tile positions are u16).
#ifndef GPUSORT_RADIX_TILE_SPLIT_H
#define GPUSORT_RADIX_TILE_SPLIT_H
#include "radix_common.h"
#include "group_scan.h"

// The tile sorted by the pass's digit in local memory, stably, in two rounds of SUB_BITS: each
// work-item counts its ITEMS consecutive keys' sub-digits in its own column of `cols`
// (cols[d * GROUP_SIZE + t]), one scan of the digit-major table gives every key its place, and the
// keys move there with their tile positions. Keys past the tile's end take the largest digit, so
// they stay last.
#define SUB_BITS 4
#define SUB_RADIX (1u << SUB_BITS)

DEVICE_FN void tile_split_round(LOCAL key_t* lkeys, LOCAL u16* lsrc, LOCAL u16* cols, LOCAL u32* scratch,
                                u32 valid, okey_t flip, u32 shift, u32 sub_shift) {
  const u32 t = LOCAL_ID();
  key_t k[ITEMS];
  u16 src[ITEMS];
  u32 sub[ITEMS], rank[ITEMS];
  for (u32 d = 0; d < SUB_RADIX; ++d) cols[d * GROUP_SIZE + t] = 0;
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 p = t * ITEMS + i;
    k[i] = lkeys[p];
    src[i] = lsrc[p];
    const u32 digit = p < valid ? radix_digit(k[i], flip, shift) : RADIX_MASK;
    sub[i] = (digit >> sub_shift) & (SUB_RADIX - 1u);
    rank[i] = cols[sub[i] * GROUP_SIZE + t];  // only this work-item touches its column
    cols[sub[i] * GROUP_SIZE + t] = (u16)(rank[i] + 1u);
  }
  BARRIER();
  // Digit-major exclusive scan: work-item t owns entries [t * SUB_RADIX, (t + 1) * SUB_RADIX).
  u32 sum = 0;
  for (u32 j = 0; j < SUB_RADIX; ++j) sum += cols[t * SUB_RADIX + j];
  u32 run = group_exclusive_scan_u32(sum, scratch);
  for (u32 j = 0; j < SUB_RADIX; ++j) {
    const u32 c = cols[t * SUB_RADIX + j];
    cols[t * SUB_RADIX + j] = (u16)run;
    run += c;
  }
  BARRIER();
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 to = (u32)cols[sub[i] * GROUP_SIZE + t] + rank[i];
    lkeys[to] = k[i];
    lsrc[to] = src[i];
  }
  BARRIER();
}

// Keys [first, first + valid) of `keys` into lkeys (coalesced loads), every slot's tile position into
// lsrc (the split rounds move the slots past `valid` too), and the tile's count of each digit added to
// tile_count (zeroed by the caller, behind a barrier). Ends with a barrier.
DEVICE_FN void radix_tile_load(GLOBAL const key_t* keys, u64 first, u32 valid, okey_t flip, u32 shift,
                               LOCAL key_t* lkeys, LOCAL u16* lsrc, LOCAL u32* tile_count) {
  for (u32 p = LOCAL_ID(); p < TILE; p += GROUP_SIZE) {
    if (p < valid) {
      lkeys[p] = keys[first + p];
      ATOMIC_ADD_U32(&tile_count[radix_digit(lkeys[p], flip, shift)], 1u);
    }
    lsrc[p] = (u16)p;
  }
  BARRIER();
}

// The loaded tile in the pass's digit order, stably (both split rounds). Ends with a barrier.
DEVICE_FN void radix_tile_sort(LOCAL key_t* lkeys, LOCAL u16* lsrc, LOCAL u16* cols, LOCAL u32* scratch, u32 valid,
                               okey_t flip, u32 shift) {
  for (u32 sub_shift = 0; sub_shift < RADIX_BITS; sub_shift += SUB_BITS)
    tile_split_round(lkeys, lsrc, cols, scratch, valid, flip, shift, sub_shift);
}

// a[d] becomes the sum of a[0 .. d) for the RADIX digits, when `active` (uniform over the group;
// every work-item calls it either way). RADIX_GROUP_DIGIT_SCAN = 1 (host: GPUs): the whole group
// scans, work-item t owning a run of consecutive digits (with tile 0 alone scanning the global
// offsets, the portable onesweep pass went 6.5 -> 6.15 ms at 2^28 u32 on NVIDIA's OpenCL). 0 (CPUs):
// one work-item adds them up, since the group form gave wrong starts on PoCL 3.1 for some
// work-groups, varying from run to run (not understood; the same steps work in tile_split_round).
// The caller's writes to `a` must be behind a barrier; ends with one.
#ifndef RADIX_GROUP_DIGIT_SCAN
#error "RADIX_GROUP_DIGIT_SCAN must be defined (src/algorithms/radix_policy.cpp)"
#endif
DEVICE_FN void radix_digits_exclusive_scan(LOCAL u32* a, LOCAL u32* scratch, bool active) {
#if RADIX_GROUP_DIGIT_SCAN
  const u32 per = (RADIX + GROUP_SIZE - 1u) / GROUP_SIZE;
  const u32 first = LOCAL_ID() * per;
  u32 sum = 0;
  for (u32 j = 0; j < per; ++j)
    if (first + j < RADIX) sum += a[first + j];
  u32 run = group_exclusive_scan_u32(sum, scratch);
  if (active)
    for (u32 j = 0; j < per; ++j)
      if (first + j < RADIX) {
        const u32 c = a[first + j];
        a[first + j] = run;
        run += c;
      }
#else
  (void)scratch;
  if (active && LOCAL_ID() == 0) {
    u32 run = 0;
    for (u32 d = 0; d < RADIX; ++d) {
      const u32 c = a[d];
      a[d] = run;
      run += c;
    }
  }
#endif
  BARRIER();
}

#endif  // GPUSORT_RADIX_TILE_SPLIT_H
