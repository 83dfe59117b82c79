// Naive merge (Locicero's first merge): one work-item merges two neighbouring sorted runs of
// `width` keys sequentially, from src into dst. Level after level the width doubles and the
// number of busy work-items halves; the last level is one work-item merging the whole array.
// Stable: on equal keys the left run's key goes first. Runs come from a tile sort (odd_even.cl).
// Specialised by keys.h's defines.
// NVRTC-CHECK-DEFINES:
#include "keys.h"

KERNEL naive_merge_level(GLOBAL const key_t* src_keys, GLOBAL const value_t* src_values, GLOBAL key_t* dst_keys,
                         GLOBAL value_t* dst_values, u64 n, u64 width, okey_t flip) {
  const u64 start = GLOBAL_ID() * 2 * width;
  if (start >= n) return;  // no barriers in this kernel
  const u64 mid = gs_min_u64(start + width, n), end = gs_min_u64(start + 2 * width, n);
  u64 a = start, b = mid, o = start;
  while (a < mid && b < end) {
    // take the right key only when it comes strictly first: stable
    if (key_before(src_keys[b], src_keys[a], flip)) {
      dst_keys[o] = src_keys[b];
#if HAS_VALUES
      dst_values[o] = src_values[b];
#endif
      ++b;
    } else {
      dst_keys[o] = src_keys[a];
#if HAS_VALUES
      dst_values[o] = src_values[a];
#endif
      ++a;
    }
    ++o;
  }
  for (; a < mid; ++a, ++o) {
    dst_keys[o] = src_keys[a];
#if HAS_VALUES
    dst_values[o] = src_values[a];
#endif
  }
  for (; b < end; ++b, ++o) {
    dst_keys[o] = src_keys[b];
#if HAS_VALUES
    dst_values[o] = src_values[b];
#endif
  }
}
