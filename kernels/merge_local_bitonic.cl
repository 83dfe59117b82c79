// merge algorithm, local variant "bitonic": Bainville's local bitonic network over the tile
// (bitonic_network.h positions, any count by skipping comparators past the end), made stable by
// comparing (key, original position) pairs (compare_exchange.h: compare_exchange_by_position).
// Work O(TILE log^2 TILE), depth O(log^2 TILE).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=4
#include "merge_tile.h"
#include "bitonic_network.h"
#include "compare_exchange.h"

KERNEL merge_local_sort(TILE_KERNEL_ARGS) {
  TILE_KERNEL_BEGIN
  for (u32 k = 2; k <= TILE; k <<= 1) {
    for (u32 j = k >> 1; j > 0; j >>= 1) {
      for (u32 c = LOCAL_ID(); c < TILE / 2; c += GROUP_SIZE) {
        const u32 lo = bitonic_low32(c, j);
        const u32 hi = bitonic_high32(lo, k, j);
        if (hi < count) compare_exchange_by_position(lk, lp, lo, hi, flip);
      }
      BARRIER();
    }
  }
  TILE_KERNEL_END
}
