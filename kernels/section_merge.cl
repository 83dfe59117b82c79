// Section sort + scatter-address merge (the CUDA merge-sort seed), for any n and any section count.
//   section_sort:        work-item s sorts keys [s*section, min((s+1)*section, n)) in place by
//                        insertion sort (stable: a key moves left only past keys strictly after it).
//   section_merge_level: runs of `width` keys are merged in pairs from src to dst, one work-item per
//                        key: its output position is its offset in its own run plus its rank in the
//                        sibling run (rank_search.h). A left-run key counts the sibling's keys strictly
//                        before it, a right-run key those before or equal: equal keys of the left run
//                        go first (stable) and no two keys share a position. A last run without a
//                        sibling is copied through.
// Specialised by keys.h's defines; keys compare in the sort's order (keys.h: order_key and
// order_before, the natural order or a run-time one).
// NVRTC-CHECK-DEFINES:
#include "keys.h"
#include "rank_search.h"

KERNEL section_sort(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, u64 section, okey_t flip) {
  const u64 start = GLOBAL_ID() * section;
  if (start >= n) return;  // no barriers in this kernel
  const u64 end = gs_min_u64(start + section, n);
  for (u64 i = start + 1; i < end; ++i) {
    const key_t k = keys[i];
    const order_t ok = order_key(k, flip);
#if HAS_VALUES
    const value_t v = values[i];
#endif
    u64 j = i;
    while (j > start && order_before(ok, order_key(keys[j - 1], flip))) {
      keys[j] = keys[j - 1];
#if HAS_VALUES
      values[j] = values[j - 1];
#endif
      --j;
    }
    keys[j] = k;
#if HAS_VALUES
    values[j] = v;
#endif
  }
}

KERNEL section_merge_level(GLOBAL const key_t* src_keys, GLOBAL const value_t* src_values, GLOBAL key_t* dst_keys,
                           GLOBAL value_t* dst_values, u64 n, u64 width, okey_t flip) {
  const u64 i = GLOBAL_ID();
  if (i >= n) return;  // no barriers in this kernel
  const u64 run = i / width;
  const u64 run_start = run * width;
  const u64 pair_start = (run >> 1) * 2 * width;
  const key_t k = src_keys[i];
  const order_t ok = order_key(k, flip);
  u64 dest;
  if (run & 1) {
    dest = pair_start + (i - run_start) + rank_search_global(src_keys + pair_start, width, ok, RANK_UPPER, flip);
  } else {
    const u64 sib = run_start + width;
    dest = i;
    if (sib < n) dest += rank_search_global(src_keys + sib, gs_min_u64(width, n - sib), ok, RANK_LOWER, flip);
  }
  dst_keys[dest] = k;
#if HAS_VALUES
  dst_values[dest] = src_values[i];
#endif
}
