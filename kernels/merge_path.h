// Merge path (Green, McColl & Bader; ModernGPU's MergePath): the one search that splits a merge of
// two sorted runs A and B into independent pieces. Output diagonal d (the first d keys of the merged
// result) contains the first i keys of A and the first d - i keys of B, where i is found by one
// binary search along the diagonal. Ties go to A (a key of B is taken before a key of A only when it
// comes strictly first), which is what makes a merge of a left run A with a right run B stable.
// Global form (64-bit positions: grid partitioning) and local form (32-bit: per-thread split).
#ifndef GPUSORT_MERGE_PATH_H
#define GPUSORT_MERGE_PATH_H
#include "keys.h"
#include "rank_search.h"

// Number of keys of a[0 .. a_len) among the first `diag` keys of merge(a, b), 0 <= diag <= a_len + b_len.
DEVICE_FN u64 merge_path_global(GLOBAL const key_t* a, u64 a_len, GLOBAL const key_t* b, u64 b_len, u64 diag,
                                okey_t flip) {
  u64 lo = diag > b_len ? diag - b_len : 0;
  u64 hi = gs_min_u64(diag, a_len);
  while (lo < hi) {
    u64 mid = lo + ((hi - lo) >> 1);
    // b[diag-1-mid] strictly before a[mid]: a[mid] is not among the first diag keys.
    if (rank_probe_before(ordered_key(b[diag - 1 - mid], flip), ordered_key(a[mid], flip), 0))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

DEVICE_FN u32 merge_path_local(LOCAL const key_t* a, u32 a_len, LOCAL const key_t* b, u32 b_len, u32 diag,
                               okey_t flip) {
  u32 lo = diag > b_len ? diag - b_len : 0;
  u32 hi = gs_min_u32(diag, a_len);
  while (lo < hi) {
    u32 mid = lo + ((hi - lo) >> 1);
    if (rank_probe_before(ordered_key(b[diag - 1 - mid], flip), ordered_key(a[mid], flip), 0))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

#endif
