// merge algorithm, local variant "odd-even": Locicero's "assembly lane" (odd-even transposition) in
// local memory: count phases, phase p compares the adjacent pairs (i, i+1) with i of p's parity.
// Adjacent swaps only when the upper key comes strictly first (ties by original position, which
// never triggers for adjacent equal keys already in order): stable. Work O(TILE^2), depth O(TILE).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=2
#include "merge_tile.h"
#include "compare_exchange.h"

KERNEL merge_local_sort(TILE_KERNEL_ARGS) {
  TILE_KERNEL_BEGIN
  for (u32 p = 0; p < count; ++p) {
    for (u32 c = LOCAL_ID(); c < TILE / 2; c += GROUP_SIZE) {
      const u32 i = 2 * c + (p & 1);
      if (i + 1 < count) compare_exchange_by_position(lk, lp, i, i + 1, flip);
    }
    BARRIER();
  }
  TILE_KERNEL_END
}
