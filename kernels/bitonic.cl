// Bitonic sort kernels (Bainville's local bitonic network; the OpenCL cookbook's global
// stage/sub-stage kernel), for any n: see bitonic_network.h for why padding is free.
//   bitonic_sort_tiles:   each work-group sorts one tile of TILE = 2*GROUP_SIZE keys in local memory
//                         (all stages k <= TILE fused into one launch).
//   bitonic_global_step:  one step (k, j) with j >= TILE over the whole array, one comparator per item.
//   bitonic_merge_tiles:  the steps j = TILE/2 .. 1 of a stage k > TILE, fused in local memory.
// Specialised by keys.h's defines and GROUP_SIZE (a power of two).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256
#include "keys.h"
#include "bitonic_network.h"
#include "compare_exchange.h"

#ifndef GROUP_SIZE
#error "GROUP_SIZE must be defined"
#endif
#define TILE (2 * GROUP_SIZE)

DEVICE_FN u32 tile_count(u64 base, u64 n) { return (u32)gs_min_u64((u64)TILE, n - base); }

KERNEL bitonic_sort_tiles(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, okey_t flip) {
  LOCAL_ARRAY key_t tile_keys[TILE];
#if HAS_VALUES
  LOCAL_ARRAY value_t tile_values[TILE];
#else
  LOCAL value_t* tile_values = 0;
#endif
  const u64 base = GROUP_ID() * TILE;
  const u32 count = tile_count(base, n);
  const u32 t = LOCAL_ID();
  for (u32 i = t; i < count; i += GROUP_SIZE) {
    tile_keys[i] = keys[base + i];
#if HAS_VALUES
    tile_values[i] = values[base + i];
#endif
  }
  BARRIER();
  for (u32 k = 2; k <= TILE; k <<= 1) {
    for (u32 j = k >> 1; j > 0; j >>= 1) {
      u32 lo = bitonic_low32(t, j);
      u32 hi = bitonic_high32(lo, k, j);
      if (hi < count) compare_exchange_local(tile_keys, tile_values, lo, hi, flip);
      BARRIER();
    }
  }
  for (u32 i = t; i < count; i += GROUP_SIZE) {
    keys[base + i] = tile_keys[i];
#if HAS_VALUES
    values[base + i] = tile_values[i];
#endif
  }
}

KERNEL bitonic_global_step(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, u64 k, u64 j, okey_t flip) {
  u64 lo = bitonic_low(GLOBAL_ID(), j);
  u64 hi = bitonic_high(lo, k, j);
  if (hi < n) compare_exchange_global(keys, values, lo, hi, flip);
}

KERNEL bitonic_merge_tiles(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, okey_t flip) {
  LOCAL_ARRAY key_t tile_keys[TILE];
#if HAS_VALUES
  LOCAL_ARRAY value_t tile_values[TILE];
#else
  LOCAL value_t* tile_values = 0;
#endif
  const u64 base = GROUP_ID() * TILE;
  const u32 count = tile_count(base, n);
  const u32 t = LOCAL_ID();
  for (u32 i = t; i < count; i += GROUP_SIZE) {
    tile_keys[i] = keys[base + i];
#if HAS_VALUES
    tile_values[i] = values[base + i];
#endif
  }
  BARRIER();
  // Only half-cleaner steps remain (the stage's mirror step had j = k/2 >= TILE); k = 2*TILE
  // stands for "any stage larger than a tile" in bitonic_high32.
  for (u32 j = TILE >> 1; j > 0; j >>= 1) {
    u32 lo = bitonic_low32(t, j);
    u32 hi = bitonic_high32(lo, 2 * TILE, j);
    if (hi < count) compare_exchange_local(tile_keys, tile_values, lo, hi, flip);
    BARRIER();
  }
  for (u32 i = t; i < count; i += GROUP_SIZE) {
    keys[base + i] = tile_keys[i];
#if HAS_VALUES
    values[base + i] = tile_values[i];
#endif
  }
}
