// The check of a sort by a run-time order (src/algorithms/order_check.cpp). An order that is not a
// strict weak order (`a < b` over NaN, `a <= b`, `return 1;`) can make a comparison sort lose or
// duplicate keys, or leave them out of order; the host compares what this kernel finds before and
// after the sort.
//   order_check: work-group g reduces the elements g*GROUP_SIZE + t + k*(grid size) into
//     partials[3g .. 3g+3): the sum and the xor of a 64-bit mix of each (key, value) -- the same for
//     any permutation of the elements -- and, when count_inversions, the number of positions i with
//     key i+1 strictly before key i in the sort's order (0 after a correct sort).
// Built with the sort's run-time order; specialised by keys.h's defines and GROUP_SIZE.
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256
#include "keys.h"

#ifndef GROUP_SIZE
#error "GROUP_SIZE must be defined"
#endif

// One element's mix: its key's bits, then its value's, so a value that leaves its key changes it.
DEVICE_FN u64 element_mix(key_t k, GLOBAL const value_t* values, u64 i) {
  u64 h = gs_mix_u64((u64)k + 0x9E3779B97F4A7C15ull);
#if VALUE_BYTES == 16
  h = gs_mix_u64(h ^ values[i].lo);
  h = gs_mix_u64(h ^ values[i].hi);
#elif HAS_VALUES
  h = gs_mix_u64(h ^ (u64)values[i]);
#else
  (void)values;
  (void)i;
#endif
  return h;
}

KERNEL order_check(GLOBAL const key_t* keys, GLOBAL const value_t* values, u64 n, u32 count_inversions, okey_t flip,
                   GLOBAL u64* partials) {
  LOCAL_ARRAY u64 sums[GROUP_SIZE];
  LOCAL_ARRAY u64 xors[GROUP_SIZE];
  LOCAL_ARRAY u64 inversions[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  const u64 step = NUM_GROUPS() * GROUP_SIZE;
  u64 sum = 0, xr = 0, inv = 0;
  for (u64 i = GROUP_ID() * GROUP_SIZE + t; i < n; i += step) {
    const key_t k = keys[i];
    const u64 h = element_mix(k, values, i);
    sum += h;
    xr ^= h;
    if (count_inversions && i + 1 < n && key_before(keys[i + 1], k, flip)) ++inv;
  }
  sums[t] = sum;
  xors[t] = xr;
  inversions[t] = inv;
  BARRIER();
  for (u32 w = GROUP_SIZE / 2; w > 0; w >>= 1) {
    if (t < w) {
      sums[t] += sums[t + w];
      xors[t] ^= xors[t + w];
      inversions[t] += inversions[t + w];
    }
    BARRIER();
  }
  if (t == 0) {
    GLOBAL u64* out = partials + 3 * GROUP_ID();
    out[0] = sums[0];
    out[1] = xors[0];
    out[2] = inversions[0];
  }
}
