// merge algorithm, global variant "blocked" (default): merge path with the grid partitioned first.
//   merge_partition: one work-item per work-group of the pass finds, with one merge_path_global
//     search, how many keys of the left run precede that group's first output (splits[g]). All
//     searches of a pass run at once, so their memory latency overlaps instead of stalling each
//     merging group as the "path" variant's in-kernel searches do.
//   merge_pass: work-group g produces TILE = GROUP_SIZE*ITEMS consecutive outputs of one pair
//     (merge_blocked_tile.h: staged in local memory, merged in registers, ties to A: stable).
// Geometry as merge_runs.h: pair p merges runs 2p and 2p+1 of `width` keys; a pair spans
// ceil(2*width / TILE) work-groups.
// The NVRTC check builds the widest case (8-byte keys, 16-byte values) with the items it gets:
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=8
#include "merge_runs.h"
#include "merge_path.h"
#include "merge_blocked_tile.h"

// The pair and the first output (within the pair) of work-group g.
DEVICE_FN void blocked_group_place(u64 g, u64 width, u64* pair_start, u64* d0) {
  const u64 chunks = (2 * width + TILE - 1) / TILE;
  const u64 pair = g / chunks;
  *pair_start = pair * 2 * width;
  *d0 = (g - pair * chunks) * TILE;
}

KERNEL merge_partition(GLOBAL const key_t* src_keys, GLOBAL u64* splits, u64 n, u64 width, u64 groups,
                       okey_t flip) {
  const u64 g = GLOBAL_ID();
  if (g >= groups) return;
  u64 a0, d0;
  blocked_group_place(g, width, &a0, &d0);
  const u64 a_len = run_length(a0, width, n);
  const u64 b_len = run_length(a0 + width, width, n);
  splits[g] = merge_path_global(src_keys + a0, a_len, src_keys + a0 + width, b_len,
                                gs_min_u64(d0, a_len + b_len), flip);
}

KERNEL merge_pass(MERGE_PASS_ARGS, GLOBAL const u64* splits) {
  BLOCKED_TILE_LOCALS;
  const u64 g = GROUP_ID();
  u64 a0, d0;
  blocked_group_place(g, width, &a0, &d0);
  const u64 a_len = run_length(a0, width, n);
  const u64 total = a_len + run_length(a0 + width, width, n);
  if (d0 >= total) return;  // the whole group leaves together, before any barrier
  const u64 d1 = gs_min_u64(d0 + TILE, total);
  // The next group starts where this one ends, unless this is the pair's last group.
  const u64 next = d1 == total ? a_len : splits[g + 1];
  const u64 ai0 = splits[g];
  const u64 ai1 = merge_split_after(ai0, d0 - ai0, next, d1 - d0, a_len, total - a_len);
  blocked_merge_tile(lk, BLOCKED_TILE_ORIGINS, src_keys, src_values, dst_keys, dst_values, a0, a0 + width, ai0,
                     ai1, d0, d1, a0 + d0, flip);
}
