// merge algorithm, global variant "rank": Locicero's full-parallel merge. One work-item per key; its
// output position is its offset in its run plus its rank in the sibling run, found by one binary
// search in global memory (rank_search.h: lower bound for a left-run key, upper bound for a
// right-run key: stable, no collisions on duplicates). Work O(n log w) per pass, depth O(log w).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256
#include "merge_runs.h"
#include "rank_search.h"

KERNEL merge_pass(MERGE_PASS_ARGS) {
  const u64 i = GLOBAL_ID();
  if (i >= n) return;  // no barriers in this kernel
  const int left = merge_is_left(i, width);
  const u64 sib = merge_sibling(i, width);
  const u64 sib_len = left ? run_length(sib, width, n) : width;
  const key_t key = src_keys[i];
  const u64 r = rank_search_global(src_keys + sib, sib_len, order_key(key, flip), !left, flip);
  merge_move(dst_keys, dst_values, merge_destination(i, width, r), key, src_values, i);
}
