// The one binary rank search: how many keys of one sorted run come before a probe key in the sort
// order. The two bounds are what a stable merge needs:
//   RANK_LOWER: keys strictly before x               (an item of the LEFT run probing the right run)
//   RANK_UPPER: keys not after x (before or equal)   (an item of the RIGHT run probing the left run)
// With these two, equal keys of the left run land before equal keys of the right run and no two
// items ever get the same output position. Local form (32-bit positions: a run in local memory is
// at most a tile) and global form (64-bit).
#ifndef GPUSORT_RANK_SEARCH_H
#define GPUSORT_RANK_SEARCH_H
#include "keys.h"

#define RANK_LOWER 0
#define RANK_UPPER 1

// The one predicate every search of gpusort's merges uses: does a probe key come before the pivot,
// with ties counted as "before" only for the upper bound.
#ifdef GPUSORT_USER_ORDER
// A run-time order has only "before": "not after" is "the pivot is not before the probe".
DEVICE_FN int rank_probe_before(order_t probe, order_t pivot, int upper) {
  return upper ? !order_before(pivot, probe) : order_before(probe, pivot);
}
#else
DEVICE_FN int rank_probe_before(okey_t probe, okey_t pivot, int upper) {
  return probe < pivot || (upper && probe == pivot);
}
#endif

// The same predicate spelled for a bound known at compile time: one comparison, which folds to a
// plain < or <=. Given upper = 1, the spelling above can cost an extra compare per probe (for
// 32- and 64-bit keys NVRTC rewrites the equality on the raw key bits and never merges it back
// into <=). Given a run-time bound the two spellings compile differently; the local searches keep
// the one above, which they have always used.
#ifdef GPUSORT_USER_ORDER
#define rank_probe_before_fixed rank_probe_before
#else
DEVICE_FN int rank_probe_before_fixed(okey_t probe, okey_t pivot, int upper) {
  return upper ? probe <= pivot : probe < pivot;
}
#endif

// Number of keys of run[0 .. len) before ox = order_key(x, flip), run sorted by
// order_key(., flip) (keys.h); upper is RANK_LOWER or RANK_UPPER. One body for both address spaces:
// OpenCL 1.2 has no generic address space, so the macro stamps one function per space.
#define GS_DEFINE_RANK_SEARCH(name, SPACE, index_t, probe_before)                                  \
  DEVICE_FN index_t name(SPACE const key_t* run, index_t len, order_t ox, int upper, okey_t flip) { \
    index_t lo = 0, hi = len;                                                                       \
    while (lo < hi) {                                                                               \
      const index_t mid = lo + ((hi - lo) >> 1);                                                    \
      if (probe_before(order_key(run[mid], flip), ox, upper))                                       \
        lo = mid + 1;                                                                               \
      else                                                                                          \
        hi = mid;                                                                                   \
    }                                                                                               \
    return lo;                                                                                      \
  }
GS_DEFINE_RANK_SEARCH(rank_search_local, LOCAL, u32, rank_probe_before)
GS_DEFINE_RANK_SEARCH(rank_search_global_fixed, GLOBAL, u64, rank_probe_before_fixed)

// Global searches are the long ones (a whole run, uncached): the bound is tested once, here, and
// each arm searches with it fixed, so no probe tests `upper`.
DEVICE_FN u64 rank_search_global(GLOBAL const key_t* run, u64 len, order_t ox, int upper, okey_t flip) {
  return upper ? rank_search_global_fixed(run, len, ox, RANK_UPPER, flip)
               : rank_search_global_fixed(run, len, ox, RANK_LOWER, flip);
}

#endif
