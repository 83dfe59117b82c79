// merge algorithm, local variant "rank": Locicero's parallel counting (rank) sort of a tile. Each key
// counts the tile's keys that precede it (strictly before, or equal and earlier in the tile): that
// count is its position, so the sort is stable and loses no duplicates (the seed's unstable version
// wrote equal keys by repetition count, dropping their values). Work O(TILE^2), depth O(TILE).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=2
#include "merge_tile.h"

KERNEL merge_local_sort(TILE_KERNEL_ARGS) {
  TILE_KERNEL_BEGIN
  {
    key_t kr[ITEMS];
    u32 dr[ITEMS];
    for (u32 k = 0; k < ITEMS; ++k) {
      const u32 s = LOCAL_ID() + k * GROUP_SIZE;
      if (s < count) {
        const key_t key = lk[s];
        const order_t o = order_key(key, flip);
        u32 r = 0;
        for (u32 j = 0; j < count; ++j) {
          const order_t oj = order_key(lk[j], flip);
          r += (order_before(oj, o) || (j < s && !order_before(o, oj))) ? 1u : 0u;
        }
        kr[k] = key;
        dr[k] = order_clamp_u32(r, 0, count - 1);  // a run-time order that is no strict weak order can count count
      }
    }
    BARRIER();
    for (u32 k = 0; k < ITEMS; ++k) {
      const u32 s = LOCAL_ID() + k * GROUP_SIZE;
      if (s < count) {
        lk[dr[k]] = kr[k];
        lp[dr[k]] = s;  // lp was the identity
      }
    }
    BARRIER();
  }
  TILE_KERNEL_END
}
