// Geometry of one global merge pass of the merge algorithm: the input holds sorted runs of `width`
// keys (a power of two; the last run may be shorter, the last pair may lack its right run); pair p
// merges runs 2p (left) and 2p+1 (right) into [2p*width, min(n, (2p+2)*width)). Passes read
// src_keys/src_values and write dst_keys/dst_values (distinct buffers).
#ifndef GPUSORT_MERGE_RUNS_H
#define GPUSORT_MERGE_RUNS_H
#include "keys.h"
#include "rank_search.h"

#define MERGE_PASS_ARGS                                                                                     \
  GLOBAL const key_t *src_keys, GLOBAL const value_t *src_values, GLOBAL key_t *dst_keys,                   \
      GLOBAL value_t *dst_values, u64 n, u64 width, okey_t flip

// Keys of the run starting at `start` (0 past the end).
DEVICE_FN u64 run_length(u64 start, u64 width, u64 n) { return start < n ? gs_min_u64(width, n - start) : 0; }

// Writes key (read from src position `from`) and its value to dst position `to`.
DEVICE_FN void merge_move(GLOBAL key_t* dst_keys, GLOBAL value_t* dst_values, u64 to, key_t key,
                          GLOBAL const value_t* src_values, u64 from) {
  dst_keys[to] = key;
#if HAS_VALUES
  dst_values[to] = src_values[from];
#else
  (void)dst_values;
  (void)src_values;
  (void)from;
#endif
}

// The sibling run of the key at position i: its start, its length, and whether i is in a left run.
// Output position of that key = pair start + offset in its own run + its rank in the sibling.
DEVICE_FN int merge_is_left(u64 i, u64 width) { return (i & width) == 0; }
DEVICE_FN u64 merge_sibling(u64 i, u64 width) {
  const u64 run = i & ~(width - 1);
  return merge_is_left(i, width) ? run + width : run - width;
}
DEVICE_FN u64 merge_destination(u64 i, u64 width, u64 rank) {
  return (i & ~(2 * width - 1)) + (i & (width - 1)) + rank;
}

// The window [window[0], window[1]) of the sibling run sb[0 .. sib_len) that a work-group's keys
// src_keys[g0 .. g0+cnt) rank into: two work-items search for the group's first and last key.
// Every work-item calls it; the caller puts a BARRIER between it and the first read of window.
// Used by the merge variants that cache the sibling's window in local memory (cached, hashed).
DEVICE_FN void merge_group_window(GLOBAL const key_t* src_keys, GLOBAL const key_t* sb, u64 sib_len, u64 g0,
                                  u32 cnt, int upper, okey_t flip, LOCAL u64* window) {
  const u32 t = LOCAL_ID();
  if (t == 0) window[0] = rank_search_global(sb, sib_len, order_key(src_keys[g0], flip), upper, flip);
  if (t == (LOCAL_SIZE() > 1 ? 1u : 0u))
    window[1] = rank_search_global(sb, sib_len, order_key(src_keys[g0 + cnt - 1], flip), upper, flip);
}

// The length of the window: window[1] - window[0], or 0 where a run-time order that is not a strict
// weak order ranks the group's last key before its first (keys.h: order_clamp_u64).
DEVICE_FN u64 merge_window_length(LOCAL const u64* window) {
#ifdef GPUSORT_USER_ORDER
  return window[1] > window[0] ? window[1] - window[0] : 0;
#else
  return window[1] - window[0];
#endif
}

// The kernel frame of those variants: the group's keys src_keys[g0 .. g0+cnt) lie in one run (width
// is a multiple of GROUP_SIZE), `left` says which of the pair, sb[0 .. sib_len) is the sibling run,
// and window[] gets the bounds of the part they rank into (read it after a BARRIER). Declares t, g0,
// cnt, left, sib, sib_len, sb and window in the kernel.
#define MERGE_WINDOW_BEGIN                                                \
  LOCAL_ARRAY u64 window[2];                                              \
  const u32 t = LOCAL_ID();                                               \
  const u64 g0 = GROUP_ID() * GROUP_SIZE;                                 \
  const u32 cnt = (u32)gs_min_u64(GROUP_SIZE, n - g0);                    \
  const int left = merge_is_left(g0, width);                              \
  const u64 sib = merge_sibling(g0, width);                               \
  const u64 sib_len = left ? run_length(sib, width, n) : width;           \
  GLOBAL const key_t* sb = src_keys + sib;                                \
  merge_group_window(src_keys, sb, sib_len, g0, cnt, !left, flip, window);

#endif
