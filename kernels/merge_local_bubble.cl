// merge algorithm, local variant "bubble": the CUDA merge-sort seed's stage 1 moved into local memory.
// Work-item t bubble-sorts its own section of ITEMS consecutive keys (private registers; adjacent
// swaps only when the upper key comes strictly first: stable), then the tile's sections are merged
// pairwise by the local binary merge (merge_tile.h) starting at width ITEMS. The seed's scatter
// addresses used the same search for both runs and so collided on equal keys; the left/right
// bounds of rank_search.h fix that. Work O(TILE*ITEMS + TILE log^2 TILE).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=8
#include "merge_tile.h"
#include "compare_exchange.h"

KERNEL merge_local_sort(TILE_KERNEL_ARGS) {
  TILE_KERNEL_BEGIN
  {
    const u32 b = LOCAL_ID() * ITEMS;
    const u32 m = b < count ? gs_min_u32(ITEMS, count - b) : 0u;
    key_t kr[ITEMS];
    u32 pr[ITEMS];
    for (u32 i = 0; i < m; ++i) {
      kr[i] = lk[b + i];
      pr[i] = lp[b + i];
    }
    for (u32 pass = 1; pass < m; ++pass) {
      for (u32 i = 0; i + pass < m; ++i)
        COMPARE_EXCHANGE_REGS(1, kr[i], kr[i + 1], flip, GS_SWAP(u32, pr[i], pr[i + 1]))
    }
    for (u32 i = 0; i < m; ++i) {
      lk[b + i] = kr[i];
      lp[b + i] = pr[i];
    }
  }
  BARRIER();
  tile_merge_runs(lk, lp, count, ITEMS, flip);
  TILE_KERNEL_END
}
