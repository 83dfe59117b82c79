// Binary rank search over one sorted run of keys in global memory: how many keys of the run come
// before a probe key in the sort order. The two bounds are what a stable merge needs:
//   rank_lower_bound: keys strictly before x        (an item of the LEFT run probing the right run)
//   rank_upper_bound: keys not after x (before or equal) (an item of the RIGHT run probing the left run)
// With these two, equal keys of the left run land before equal keys of the right run and no two
// items ever get the same output position.
#ifndef GPUSORT_RANK_SEARCH_H
#define GPUSORT_RANK_SEARCH_H
#include "keys.h"

// run[0 .. len) is sorted by ordered_key(., flip). Returns the number of keys k of it with
// ordered_key(k) < ox, where ox = ordered_key(x, flip).
DEVICE_FN u64 rank_lower_bound(GLOBAL const key_t* run, u64 len, okey_t ox, okey_t flip) {
  u64 lo = 0, hi = len;
  while (lo < hi) {
    u64 mid = lo + ((hi - lo) >> 1);
    if (ordered_key(run[mid], flip) < ox)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The number of keys k of run[0 .. len) with ordered_key(k) <= ox.
DEVICE_FN u64 rank_upper_bound(GLOBAL const key_t* run, u64 len, okey_t ox, okey_t flip) {
  u64 lo = 0, hi = len;
  while (lo < hi) {
    u64 mid = lo + ((hi - lo) >> 1);
    if (ordered_key(run[mid], flip) <= ox)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Local-memory twins (32-bit positions: a run in local memory is at most a tile), and the one
// predicate every search of gpusort's merges uses: does a probe key come before the pivot, with
// ties counted as "before" only for the upper bound.
DEVICE_FN int rank_probe_before(okey_t probe, okey_t pivot, int upper) {
  return probe < pivot || (upper && probe == pivot);
}

// Number of keys of run[0 .. len) before ox (upper = 0: strictly before; upper = 1: not after).
DEVICE_FN u32 rank_search_local(LOCAL const key_t* run, u32 len, okey_t ox, int upper, okey_t flip) {
  u32 lo = 0, hi = len;
  while (lo < hi) {
    u32 mid = lo + ((hi - lo) >> 1);
    if (rank_probe_before(ordered_key(run[mid], flip), ox, upper))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// The global-memory form with the bound chosen at run time.
DEVICE_FN u64 rank_search_global(GLOBAL const key_t* run, u64 len, okey_t ox, int upper, okey_t flip) {
  return upper ? rank_upper_bound(run, len, ox, flip) : rank_lower_bound(run, len, ox, flip);
}

#endif
