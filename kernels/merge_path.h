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
// b[diag-1-mid] strictly before a[mid] means a[mid] is not among the first diag keys. One body for
// both address spaces: OpenCL 1.2 has no generic address space, so the macro stamps one per space.
#define GS_DEFINE_MERGE_PATH(name, SPACE, index_t, min_fn)                                               \
  DEVICE_FN index_t name(SPACE const key_t* a, index_t a_len, SPACE const key_t* b, index_t b_len,         \
                         index_t diag, okey_t flip) {                                                      \
    index_t lo = diag > b_len ? diag - b_len : 0;                                                          \
    index_t hi = min_fn(diag, a_len);                                                                      \
    while (lo < hi) {                                                                                      \
      const index_t mid = lo + ((hi - lo) >> 1);                                                           \
      if (rank_probe_before(order_key(b[diag - 1 - mid], flip), order_key(a[mid], flip), 0))               \
        hi = mid;                                                                                          \
      else                                                                                                 \
        lo = mid + 1;                                                                                      \
    }                                                                                                      \
    return lo;                                                                                             \
  }
GS_DEFINE_MERGE_PATH(merge_path_global, GLOBAL, u64, gs_min_u64)
GS_DEFINE_MERGE_PATH(merge_path_local, LOCAL, u32, gs_min_u32)

// The split that ends a piece of `count` outputs starting at split (ai0, bi0) (ai0 + bi0 = the
// piece's first diagonal): the search's result ai1, clamped to what that piece can take (at most
// count keys in all, no more of a run than it has left). Under a strict weak order the splits of
// successive diagonals never decrease and the clamp keeps ai1; a run-time order that is not one can
// give a smaller or a larger split, whose key counts would wrap (keys.h: order_clamp_u64).
DEVICE_FN u64 merge_split_after(u64 ai0, u64 bi0, u64 ai1, u64 count, u64 a_len, u64 b_len) {
#ifdef GPUSORT_USER_ORDER
  const u64 b_left = b_len - bi0;
  return order_clamp_u64(ai1, ai0 + (count > b_left ? count - b_left : 0), ai0 + gs_min_u64(count, a_len - ai0));
#else
  (void)ai0, (void)bi0, (void)count, (void)a_len, (void)b_len;
  return ai1;
#endif
}

#endif
