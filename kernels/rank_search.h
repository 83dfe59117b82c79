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

#endif
