// One tile of TILE = GROUP_SIZE * ITEMS keys in local memory, sorted by one work-group: the shared
// frame of the merge algorithm's local sorts (merge_local_*.cl).
//   - lk[] holds the keys, lp[] each key's original position in the tile. Sorts move (key, position)
//     pairs; values stay in registers and are scattered once at the end through the inverse
//     permutation, so a tile may be sorted in place (src == dst) and values of any width cost one
//     global read and one global write.
//   - Work-item t handles positions t, t + GROUP_SIZE, ... (strided: coalesced loads and stores).
//   - A partial last tile (count < TILE) is handled by clipping runs to count: items past the end do
//     no work but still reach every barrier.
// Needs GROUP_SIZE and ITEMS (powers of two) besides keys.h's defines.
#ifndef GPUSORT_MERGE_TILE_H
#define GPUSORT_MERGE_TILE_H
#include "keys.h"
#include "rank_search.h"

#if !defined(GROUP_SIZE) || !defined(ITEMS)
#error "GROUP_SIZE and ITEMS must be defined"
#endif
#define TILE (GROUP_SIZE * ITEMS)

DEVICE_FN void tile_load(GLOBAL const key_t* keys, GLOBAL const value_t* values, LOCAL key_t* lk, LOCAL u32* lp,
                         value_t* vr, u64 base, u32 count) {
  const u32 t = LOCAL_ID();
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) {
      lk[s] = keys[base + s];
      lp[s] = s;
#if HAS_VALUES
      vr[k] = values[base + s];
#endif
    }
  }
  BARRIER();
}

// Writes the sorted tile: keys in order; each value (held by the work-item that loaded it) goes to
// where its key went, found by inverting lp in place.
DEVICE_FN void tile_store(GLOBAL key_t* keys, GLOBAL value_t* values, LOCAL key_t* lk, LOCAL u32* lp,
                          value_t* vr, u64 base, u32 count) {
  const u32 t = LOCAL_ID();
#if HAS_VALUES
  u32 from[ITEMS];
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) from[k] = lp[s];
  }
  BARRIER();
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) lp[from[k]] = s;
  }
  BARRIER();
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) values[base + lp[s]] = vr[k];
  }
#else
  (void)values;
  (void)vr;
#endif
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) keys[base + s] = lk[s];
  }
}

// Bainville's / Locicero's local binary merge: runs of `width` (a power of two) are merged in pairs
// until the tile is one run. Each key's new position is its offset in its run plus its rank in the
// sibling run: a key of the left run counts sibling keys strictly before it, a key of the right run
// those not after it (rank_search.h), so equal keys keep their order and no two keys collide.
DEVICE_FN void tile_merge_runs(LOCAL key_t* lk, LOCAL u32* lp, u32 count, u32 width, okey_t flip) {
  const u32 t = LOCAL_ID();
  for (u32 w = width; w < count; w <<= 1) {
    key_t kr[ITEMS];
    u32 pr[ITEMS], dr[ITEMS];
    for (u32 k = 0; k < ITEMS; ++k) {
      const u32 s = t + k * GROUP_SIZE;
      if (s < count) {
        const key_t key = lk[s];
        const u32 run = s & ~(w - 1);
        const int left = (s & w) == 0;
        const u32 sib = left ? run + w : run - w;
        const u32 sib_len = left ? (sib < count ? gs_min_u32(w, count - sib) : 0u) : w;
        const u32 r = sib_len ? rank_search_local(lk + sib, sib_len, order_key(key, flip), !left, flip) : 0u;
        dr[k] = (s & ~(2 * w - 1)) + (s - run) + r;
        kr[k] = key;
        pr[k] = lp[s];
      }
    }
    BARRIER();
    for (u32 k = 0; k < ITEMS; ++k) {
      const u32 s = t + k * GROUP_SIZE;
      if (s < count) {
        lk[dr[k]] = kr[k];
        lp[dr[k]] = pr[k];
      }
    }
    BARRIER();
  }
}

// The kernel frame every local sort shares: declare the tile, load, SORT_BODY, store.
#if HAS_VALUES
#define TILE_VALUE_REGS value_t vr[ITEMS];
#else
#define TILE_VALUE_REGS value_t vr[1];
#endif
#define TILE_KERNEL_BEGIN                                                \
  LOCAL_ARRAY key_t lk[TILE];                                            \
  LOCAL_ARRAY u32 lp[TILE];                                              \
  TILE_VALUE_REGS                                                        \
  const u64 base = GROUP_ID() * (u64)TILE;                               \
  const u32 count = (u32)gs_min_u64((u64)TILE, n - base);                \
  tile_load(src_keys, src_values, lk, lp, vr, base, count);
#define TILE_KERNEL_END tile_store(dst_keys, dst_values, lk, lp, vr, base, count);
#define TILE_KERNEL_ARGS                                                                                   \
  GLOBAL const key_t *src_keys, GLOBAL const value_t *src_values, GLOBAL key_t *dst_keys,                  \
      GLOBAL value_t *dst_values, u64 n, okey_t flip

#endif
