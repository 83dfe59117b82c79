// merge algorithm, local variant "merge" (default): Bainville's local parallel merge, as corrected in
// Locicero's study. Each work-group sorts one tile of GROUP_SIZE*ITEMS keys by log2(TILE) local binary
// merges (merge_tile.h: tile_merge_runs); stable. Work O(TILE log^2 TILE), depth O(log^2 TILE).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=4
#include "merge_tile.h"

KERNEL merge_local_sort(TILE_KERNEL_ARGS) {
  TILE_KERNEL_BEGIN
  tile_merge_runs(lk, lp, count, 1, flip);
  TILE_KERNEL_END
}
