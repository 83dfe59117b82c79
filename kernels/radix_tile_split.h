// A tile of keys sorted by one 8-bit digit in local memory, for the portable radix kernels
// (radix_passes.cl's scatter, radix_onesweep_portable.cl): split rounds with no sub-group operations,
// so any OpenCL device (PoCL included) runs them, or on NVIDIA GPUs warp votes
// (radix_tile_warp_rank.h). Also the tile load and the exclusive scan of a tile's RADIX digit counts.
//
// Needs radix_common.h's defines, GROUP_SIZE, ITEMS (at most 255) and TILE (= GROUP_SIZE * ITEMS
// keys).
#ifndef GPUSORT_RADIX_TILE_SPLIT_H
#define GPUSORT_RADIX_TILE_SPLIT_H
#include "radix_common.h"
#include "group_scan.h"

// Local memory is padded one word in 32 (TILE_SLOT, COL_SLOT): work-item t reads its ITEMS
// consecutive keys, and its SUB_RADIX consecutive counters in the scan, at a stride that would put 4
// to 16 work-items of a warp on one bank; with the pad every 32 consecutive work-items hit 32 banks.
// (Counted in bank wavefronts per 2048-key tile, the unpadded u16 table's scan and the strided key
// reads were about half of the local-memory traffic of the 6.15 ms pass at 2^28 u32 on an H200's
// OpenCL; lab/notes/radix-tuning.md.)
#ifndef RADIX_WARP_RANK
#error "RADIX_WARP_RANK must be defined (src/algorithms/radix_policy.cpp)"
#endif
#define SUB_BITS 4
#define SUB_RADIX (1u << SUB_BITS)
#define TILE_SLOT(p) ((p) + ((p) >> 5))
#define TILE_SLOTS (TILE + TILE / 32u + 1u)
#define COL_SLOT(e) ((e) + ((e) >> 5))
// the split rounds' counters; with warp votes, each warp's count of each digit
#if RADIX_WARP_RANK
#define COL_SLOTS (GROUP_SIZE / 32u * RADIX)
#else
#define COL_SLOTS (SUB_RADIX * GROUP_SIZE + SUB_RADIX * GROUP_SIZE / 32u + 1u)
#endif
// lsrc, each sorted key's tile position as loaded, is only kept for values (gathered by it)
#if HAS_VALUES
#define SRC_SLOTS TILE_SLOTS
#else
#define SRC_SLOTS 1u
#endif
// A work-item counts its keys per sub-digit in two words of 8 fields each (sub-digits 0-7, 8-15):
// 4-bit fields in u32 words while a field cannot overflow (ITEMS < 16; one-instruction shifts on
// GPUs), else 8-bit fields in u64 words.
#if ITEMS < 16
typedef u32 split_counts_t;
#define SPLIT_FIELD_BITS 4u
#elif ITEMS < 256
typedef u64 split_counts_t;
#define SPLIT_FIELD_BITS 8u
#else
#error "tile_split_round counts a work-item's keys per sub-digit in 8-bit fields"
#endif
#define SPLIT_FIELD_MASK ((1u << SPLIT_FIELD_BITS) - 1u)

// The tile sorted by the pass's digit in local memory, stably, in two rounds of SUB_BITS: each
// work-item counts its ITEMS consecutive keys' sub-digits in registers (a key's rank among the
// work-item's keys of its sub-digit is the field before it is bumped), stores the counts in its own
// column of `cols` (entry d * GROUP_SIZE + t), one scan of the digit-major table gives every key its
// place, and the keys move there with their tile positions. Keys past the tile's end take the
// largest digit, so they stay last. A key's column slot and rank share one register (slot << 8 |
// rank): registers bound the work-groups per compute unit on GPUs.
DEVICE_FN void tile_split_round(LOCAL key_t* lkeys, LOCAL u32* lsrc, LOCAL u32* cols, LOCAL u32* scratch,
                                u32 valid, okey_t flip, u32 shift, u32 sub_shift) {
  const u32 t = LOCAL_ID();
  key_t k[ITEMS];
#if HAS_VALUES
  u32 src[ITEMS];
#endif
  u32 place[ITEMS];
  split_counts_t low = 0, high = 0;
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 p = t * ITEMS + i;
    k[i] = lkeys[TILE_SLOT(p)];
#if HAS_VALUES
    src[i] = lsrc[TILE_SLOT(p)];
#endif
    const u32 digit = p < valid ? radix_digit(k[i], flip, shift) : RADIX_MASK;
    const u32 sub = (digit >> sub_shift) & (SUB_RADIX - 1u);
    const u32 field = (sub & 7u) * SPLIT_FIELD_BITS;
    const split_counts_t word = sub & 8u ? high : low;
    place[i] = (COL_SLOT(sub * GROUP_SIZE + t) << 8) | ((u32)(word >> field) & SPLIT_FIELD_MASK);
    const split_counts_t bump = (split_counts_t)1 << field;
    if (sub & 8u)
      high += bump;
    else
      low += bump;
  }
  for (u32 d = 0; d < SUB_RADIX; ++d)
    cols[COL_SLOT(d * GROUP_SIZE + t)] = (u32)((d < 8u ? low : high) >> ((d & 7u) * SPLIT_FIELD_BITS)) & SPLIT_FIELD_MASK;
  BARRIER();
  // Digit-major exclusive scan: work-item t owns entries [t * SUB_RADIX, (t + 1) * SUB_RADIX).
  u32 sum = 0;
  for (u32 j = 0; j < SUB_RADIX; ++j) sum += cols[COL_SLOT(t * SUB_RADIX + j)];
  u32 run = group_exclusive_scan_u32(sum, scratch);
  for (u32 j = 0; j < SUB_RADIX; ++j) {
    const u32 c = cols[COL_SLOT(t * SUB_RADIX + j)];
    cols[COL_SLOT(t * SUB_RADIX + j)] = run;
    run += c;
  }
  BARRIER();
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 to = cols[place[i] >> 8] + (place[i] & 0xFFu);
    lkeys[TILE_SLOT(to)] = k[i];
#if HAS_VALUES
    lsrc[TILE_SLOT(to)] = src[i];
#endif
  }
  BARRIER();
}

// Keys [first, first + valid) of `keys` into lkeys (coalesced loads; slot TILE_SLOT(p) holds tile
// position p), with values their tile positions into lsrc, and the tile's count of each digit added
// to tile_count (zeroed by the caller, behind a barrier). Ends with a barrier.
// Every load is issued before the first store: one key in flight per work-item left the pass waiting
// on memory (Nsight Compute, H200, CUDA build: ~40% of the stall samples on the key's first use).
DEVICE_FN void radix_tile_load(GLOBAL const key_t* keys, u64 first, u32 valid, okey_t flip, u32 shift,
                               LOCAL key_t* lkeys, LOCAL u32* lsrc, LOCAL u32* tile_count) {
  key_t k[ITEMS];
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 p = LOCAL_ID() + i * GROUP_SIZE;
    if (p < valid) k[i] = keys[first + p];
  }
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 p = LOCAL_ID() + i * GROUP_SIZE;
    if (p < valid) {
      lkeys[TILE_SLOT(p)] = k[i];
      ATOMIC_ADD_U32(&tile_count[radix_digit(k[i], flip, shift)], 1u);
    }
#if HAS_VALUES
    lsrc[TILE_SLOT(p)] = p;
#else
    (void)lsrc;
#endif
  }
  BARRIER();
}

#include "radix_tile_warp_rank.h"

// The loaded tile in the pass's digit order, stably: with warp votes where the device has them, else
// both split rounds. tile_start: the exclusive scan of the tile's digit counts. Ends with a barrier.
DEVICE_FN void radix_tile_sort(LOCAL key_t* lkeys, LOCAL u32* lsrc, LOCAL u32* cols, LOCAL u32* scratch,
                               LOCAL const u32* tile_start, u32 valid, okey_t flip, u32 shift) {
#if RADIX_WARP_RANK
  (void)scratch;
  radix_tile_sort_warps(lkeys, lsrc, cols, tile_start, valid, flip, shift);
#else
  (void)tile_start;
  for (u32 sub_shift = 0; sub_shift < RADIX_BITS; sub_shift += SUB_BITS)
    tile_split_round(lkeys, lsrc, cols, scratch, valid, flip, shift, sub_shift);
#endif
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
