// The distributed sort's cut search on a device-resident run (src/dist/device_bounds.cpp): for each
// probe, an ordered key value as gpusort::ordered_bits gives it on the host (zero-extended to 64
// bits), how many keys of the sorted run come strictly before it (counts[i]) and how many not
// after it (counts[count + i]): one buffer, so the host reads both back at once. One work-item per
// probe: there are P - 1 of them per bisection step.
#include "rank_search.h"

KERNEL dist_bounds(GLOBAL const key_t* run, u64 n, GLOBAL const u64* probes, u32 count, okey_t flip,
                   GLOBAL u64* counts) {
  const u64 i = GLOBAL_ID();
  if (i >= count) return;
  const okey_t probe = (okey_t)probes[i];
  counts[i] = rank_search_global(run, n, probe, RANK_LOWER, flip);
  counts[count + i] = rank_search_global(run, n, probe, RANK_UPPER, flip);
}
