// merge algorithm, local variant "bitonic": Bainville's local bitonic network over the tile
// (bitonic_network.h positions, any count by skipping comparators past the end), made stable by
// comparing (key, original position) pairs (merge_tile.h: tile_compare_exchange).
// Work O(TILE log^2 TILE), depth O(log^2 TILE).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=4
#include "merge_tile.h"
#include "bitonic_network.h"

KERNEL merge_local_sort(TILE_KERNEL_ARGS) {
  TILE_KERNEL_BEGIN
  for (u32 k = 2; k <= TILE; k <<= 1) {
    for (u32 j = k >> 1; j > 0; j >>= 1) {
      for (u32 c = LOCAL_ID(); c < TILE / 2; c += GROUP_SIZE) {
        const u32 lo = bitonic_low32(c, j);
        const u32 hi = bitonic_high32(lo, k, j);
        if (hi < count) tile_compare_exchange(lk, lp, lo, hi, flip);
      }
      BARRIER();
    }
  }
  TILE_KERNEL_END
}
