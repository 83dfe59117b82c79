// One merge pass over sorted runs of any lengths (the distributed sort's received runs, one per
// source rank, src/algorithms/merge_uneven_runs.cpp): pair q merges run A = src[a_start, +a_len)
// with run B = src[b_start, +b_len) (b_len 0 for an odd run out, which is then copied) into
// dst[out_start, +a_len + b_len). The host's pair table holds, per pair, {a_start, a_len, b_start,
// b_len, out_start, first group}; pair q's outputs come from work-groups first_group(q) ..
// first_group(q + 1) - 1, TILE each, and one row past the last pair holds the number of groups.
// Runs may have gaps between them (the first pass packs them). The tile merge is the merge
// algorithm's "blocked" one (merge_blocked_tile.h): ties go to A, so the merge is stable in run order.
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=8
#include "merge_path.h"
#include "merge_blocked_tile.h"

#define UNEVEN_PAIR_WORDS 6
#define UNEVEN_FIRST_GROUP 5

// The pair that work-group g works for: the last pair whose first group is at most g (pairs with
// no outputs share their first group with the next pair, so the last one is the right one).
DEVICE_FN u32 uneven_pair_of(GLOBAL const u64* pairs, u32 pair_count, u64 g) {
  u32 lo = 0, hi = pair_count;  // pairs[lo] starts at or before g; the answer is in [lo, hi)
  while (hi - lo > 1) {
    const u32 mid = (lo + hi) >> 1;
    if (pairs[mid * UNEVEN_PAIR_WORDS + UNEVEN_FIRST_GROUP] <= g)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

KERNEL merge_uneven_partition(GLOBAL const key_t* src_keys, GLOBAL u64* splits, GLOBAL const u64* pairs,
                              u32 pair_count, u64 groups, okey_t flip) {
  const u64 g = GLOBAL_ID();
  if (g >= groups) return;
  GLOBAL const u64* pair = pairs + uneven_pair_of(pairs, pair_count, g) * UNEVEN_PAIR_WORDS;
  const u64 a_len = pair[1], b_len = pair[3];
  const u64 d0 = (g - pair[UNEVEN_FIRST_GROUP]) * TILE;
  splits[g] = merge_path_global(src_keys + pair[0], a_len, src_keys + pair[2], b_len, gs_min_u64(d0, a_len + b_len),
                                flip);
}

KERNEL merge_uneven_pass(GLOBAL const key_t* src_keys, GLOBAL const value_t* src_values, GLOBAL key_t* dst_keys,
                         GLOBAL value_t* dst_values, GLOBAL const u64* pairs, u32 pair_count, okey_t flip,
                         GLOBAL const u64* splits) {
  BLOCKED_TILE_LOCALS;
  const u64 g = GROUP_ID();
  GLOBAL const u64* pair = pairs + uneven_pair_of(pairs, pair_count, g) * UNEVEN_PAIR_WORDS;
  const u64 a_len = pair[1], total = pair[1] + pair[3];
  const u64 d0 = (g - pair[UNEVEN_FIRST_GROUP]) * TILE;
  if (d0 >= total) return;  // the whole group leaves together, before any barrier
  const u64 d1 = gs_min_u64(d0 + TILE, total);
  // The next group starts where this one ends, unless this is the pair's last group.
  const u64 ai1 = d1 == total ? a_len : splits[g + 1];
  blocked_merge_tile(lk, BLOCKED_TILE_ORIGINS, src_keys, src_values, dst_keys, dst_values, pair[0], pair[2], splits[g],
                     ai1, d0, d1, pair[4] + d0, flip);
}
