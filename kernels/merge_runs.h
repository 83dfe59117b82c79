// Geometry of one global merge pass of the merge algorithm: the input holds sorted runs of `width`
// keys (a power of two; the last run may be shorter, the last pair may lack its right run); pair p
// merges runs 2p (left) and 2p+1 (right) into [2p*width, min(n, (2p+2)*width)). Passes read
// src_keys/src_values and write dst_keys/dst_values (distinct buffers).
#ifndef GPUSORT_MERGE_RUNS_H
#define GPUSORT_MERGE_RUNS_H
#include "keys.h"

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

#endif
