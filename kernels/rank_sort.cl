// Parallel selection / counting sort (Locicero; Bainville's "parallel selection"): every key finds
// its output position by counting the keys that come before it, O(n^2) work in all.
//   rank_scatter: each work-item ranks RANK_ITEMS keys (block + t + r*GROUP_SIZE) against the whole
//                 array, which streams through a local-memory tile of GROUP_SIZE ordered keys; each
//                 tile key is compared with all of the work-item's keys held in registers (the
//                 portable form of the seed's vector loads: RANK_ITEMS keys per load of the tile).
//   stable != 0:  a key counts the keys strictly before it plus the equal keys at smaller indices:
//                 distinct positions, equal keys in input order.
//   stable == 0:  a key counts only the keys strictly before it (one comparison per pair, no index
//                 arithmetic); equal keys share that count and claim the slots of their run through
//                 one atomic increment each on claims[count] (claims: n zeroed u32), in whatever
//                 order the device serialises them.
// Keys compare in the sort's order (keys.h: order_key, order_before): "equal" is "neither before
// the other", so a run-time order ranks its own ties.
// Specialised by keys.h's defines, GROUP_SIZE and RANK_ITEMS.
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 RANK_ITEMS=4
#include "keys.h"

#ifndef GROUP_SIZE
#error "GROUP_SIZE must be defined"
#endif
#ifndef RANK_ITEMS
#define RANK_ITEMS 1
#endif

KERNEL rank_scatter(GLOBAL const key_t* keys, GLOBAL const value_t* values, GLOBAL key_t* out_keys,
                    GLOBAL value_t* out_values, GLOBAL u32* claims, u64 n, u32 stable, okey_t flip) {
  LOCAL_ARRAY order_t tile[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  const u64 block = GROUP_ID() * ((u64)GROUP_SIZE * RANK_ITEMS);
  order_t mine[RANK_ITEMS];
  u64 rank[RANK_ITEMS];
  for (u32 r = 0; r < RANK_ITEMS; ++r) {
    u64 idx = block + t + (u64)r * GROUP_SIZE;
    mine[r] = idx < n ? order_key(keys[idx], flip) : order_key(keys[0], flip);
    rank[r] = 0;
  }
  for (u64 base = 0; base < n; base += GROUP_SIZE) {
    if (base + t < n) tile[t] = order_key(keys[base + t], flip);
    BARRIER();
    const u32 count = (u32)gs_min_u64((u64)GROUP_SIZE, n - base);
    if (stable) {
      for (u32 q = 0; q < count; ++q) {
        const order_t o = tile[q];
        const u64 j = base + q;
        for (u32 r = 0; r < RANK_ITEMS; ++r)
          rank[r] += (order_before(o, mine[r]) || (j < block + t + (u64)r * GROUP_SIZE && !order_before(mine[r], o)))
                         ? 1u
                         : 0u;
      }
    } else {
      for (u32 q = 0; q < count; ++q) {
        const order_t o = tile[q];
        for (u32 r = 0; r < RANK_ITEMS; ++r) rank[r] += order_before(o, mine[r]) ? 1u : 0u;
      }
    }
    BARRIER();
  }
  for (u32 r = 0; r < RANK_ITEMS; ++r) {
    u64 idx = block + t + (u64)r * GROUP_SIZE;
    if (idx < n) {
      // A rank is below n, and a claimed slot inside its run, under a strict weak order; a run-time
      // order that is not one can count n or more (keys.h: order_clamp_u64).
      u64 pos = order_clamp_u64(rank[r], 0, n - 1);
      if (!stable) pos = order_clamp_u64(pos + ATOMIC_ADD_U32(&claims[pos], 1u), 0, n - 1);
      out_keys[pos] = keys[idx];
#if HAS_VALUES
      out_values[pos] = values[idx];
#endif
    }
  }
}
