// Bitonic sort kernels (Bainville's local bitonic network; the OpenCL cookbook's global
// stage/sub-stage kernel), for any n: see bitonic_network.h for why padding is free.
//   bitonic_sort_tiles:   each work-group sorts one tile of TILE = 2*GROUP_SIZE keys in local memory
//                         (all stages k <= TILE fused into one launch).
//   bitonic_global_step:  one step (k, j) with j >= TILE over the whole array, one comparator per item.
//   bitonic_merge_tiles:  the steps j = TILE/2 .. 1 of a stage k > TILE, fused in local memory.
//   bitonic_global_step2: two consecutive steps (j, j/2) of a stage in one launch through registers
//                         (the cookbook's two-sub-stage kernel): each work-item owns the four
//                         positions these two steps connect, so no other item touches them.
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

// One tile of TILE keys (and values) through local memory: load, run the network steps of stages
// first_k..last_k (each stage from its step j = k/2 down to 1, or from j = TILE/2 when the stage is
// larger than a tile), store. Shared by the tile sort and the fused merge of a larger stage.
DEVICE_FN void bitonic_tile(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, okey_t flip, u32 first_k, u32 last_k,
                            LOCAL key_t* tile_keys, LOCAL value_t* tile_values) {
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
  for (u32 k = first_k; k <= last_k; k <<= 1) {
    for (u32 j = gs_min_u32(k >> 1, TILE >> 1); j > 0; j >>= 1) {
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

KERNEL bitonic_sort_tiles(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, okey_t flip) {
  LOCAL_ARRAY key_t tile_keys[TILE];
  LOCAL_VALUE_ARRAY(tile_values, TILE);
  bitonic_tile(keys, values, n, flip, 2, TILE, tile_keys, tile_values);
}

KERNEL bitonic_global_step(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, u64 k, u64 j, okey_t flip) {
  u64 lo = bitonic_low(GLOBAL_ID(), j);
  u64 hi = bitonic_high(lo, k, j);
  if (hi < n) compare_exchange_global(keys, values, lo, hi, flip);
}

// Only half-cleaner steps remain in a stage larger than a tile (its mirror step had j = k/2 >=
// TILE), so k = 2*TILE stands for any such stage.
KERNEL bitonic_merge_tiles(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, okey_t flip) {
  LOCAL_ARRAY key_t tile_keys[TILE];
  LOCAL_VALUE_ARRAY(tile_values, TILE);
  bitonic_tile(keys, values, n, flip, 2 * TILE, 2 * TILE, tile_keys, tile_values);
}

KERNEL bitonic_global_step2(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, u64 k, u64 j, okey_t flip) {
  const u64 h = j >> 1;
  const u64 c = GLOBAL_ID();
  // The quad: p0 has the bits of weight h and j clear; step j pairs (p0, p2) and (p1, p3), step h
  // pairs (p0, p1) and the lower/upper of p2, p3 (in a stage's mirror step p3 = p2 - h).
  const u64 p0 = ((c & ~(h - 1)) << 2) | (c & (h - 1));
  const u64 p1 = p0 + h;
  const u64 p2 = bitonic_high(p0, k, j);
  const u64 p3 = bitonic_high(p1, k, j);
  key_t k0 = 0, k1 = 0, k2 = 0, k3 = 0;
  value_t v0, v1, v2, v3;
  if (p0 < n) k0 = keys[p0];
  if (p1 < n) k1 = keys[p1];
  if (p2 < n) k2 = keys[p2];
  if (p3 < n) k3 = keys[p3];
#if HAS_VALUES
  if (p0 < n) v0 = values[p0];
  if (p1 < n) v1 = values[p1];
  if (p2 < n) v2 = values[p2];
  if (p3 < n) v3 = values[p3];
#endif
  // A position past the end holds +infinity: its comparators are skipped.
  COMPARE_EXCHANGE_REGS(p2 < n, k0, k2, flip, GS_SWAP_VALUES(v0, v2))
  COMPARE_EXCHANGE_REGS(p3 < n, k1, k3, flip, GS_SWAP_VALUES(v1, v3))
  COMPARE_EXCHANGE_REGS(p1 < n, k0, k1, flip, GS_SWAP_VALUES(v0, v1))
  if (p3 < p2) {
    COMPARE_EXCHANGE_REGS(p2 < n, k3, k2, flip, GS_SWAP_VALUES(v3, v2))
  } else {
    COMPARE_EXCHANGE_REGS(p3 < n, k2, k3, flip, GS_SWAP_VALUES(v2, v3))
  }
  if (p0 < n) keys[p0] = k0;
  if (p1 < n) keys[p1] = k1;
  if (p2 < n) keys[p2] = k2;
  if (p3 < n) keys[p3] = k3;
#if HAS_VALUES
  if (p0 < n) values[p0] = v0;
  if (p1 < n) values[p1] = v1;
  if (p2 < n) values[p2] = v2;
  if (p3 < n) values[p3] = v3;
#endif
}
