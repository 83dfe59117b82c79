// merge algorithm, global variant "cached": Locicero's full-parallel merge with the sibling window
// cached in local memory. A work-group's GROUP_SIZE consecutive keys lie in one run (width is a
// multiple of GROUP_SIZE) and are sorted, so their ranks in the sibling run all fall in
// [rank(first key), rank(last key)]: two searches bound that window, the group loads its first CACHE
// keys into local memory (coalesced), and each key searches the cache, or the rest of the window in
// global memory when it ranks past the cache. (The study's kernel searched from the window's start
// with the wrong bound for one of the two ends and read past the cache; both are fixed here.)
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 CACHE=1024
#include "merge_runs.h"
#include "rank_search.h"

#ifndef CACHE
#error "CACHE (keys of sibling window cached per work-group) must be defined"
#endif

KERNEL merge_pass(MERGE_PASS_ARGS) {
  LOCAL_ARRAY key_t cache[CACHE];
  MERGE_WINDOW_BEGIN
  BARRIER();
  const u64 lo = window[0];
  const u64 wl = merge_window_length(window);
  const u32 c = (u32)gs_min_u64(wl, (u64)CACHE);
  for (u32 s = t; s < c; s += GROUP_SIZE) cache[s] = sb[lo + s];
  BARRIER();
  if (t < cnt) {
    const u64 i = g0 + t;
    const key_t key = src_keys[i];
    const order_t o = order_key(key, flip);
    u64 r = lo;
    if (c > 0) {
      if (c == wl || !rank_probe_before(order_key(cache[c - 1], flip), o, !left))
        r += rank_search_local(cache, c, o, !left, flip);
      else
        r += c + rank_search_global(sb + lo + c, wl - c, o, !left, flip);
    }
    merge_move(dst_keys, dst_values, merge_destination(i, width, r), key, src_values, i);
  }
}
