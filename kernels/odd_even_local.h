// Odd-even transposition ("assembly lane") of one window of keys held in local memory: `count`
// phases; phase p compares the adjacent pairs (i, i+1) with i of the parity of p. Any input of
// `count` keys is sorted after `count` phases. Comparators only swap when the upper key comes
// strictly first (compare_exchange_local), so equal keys never pass each other: the sort is
// stable. Called by every work-item of the group (it contains barriers); each work-item handles
// the pairs t, t + LOCAL_SIZE(), ... of each phase.
#ifndef GPUSORT_ODD_EVEN_LOCAL_H
#define GPUSORT_ODD_EVEN_LOCAL_H
#include "compare_exchange.h"

DEVICE_FN void odd_even_transposition_local(LOCAL key_t* keys, LOCAL value_t* values, u32 count, okey_t flip) {
  const u32 t = LOCAL_ID();
  const u32 g = LOCAL_SIZE();
  for (u32 p = 0; p < count; ++p) {
    for (u32 i = 2 * t + (p & 1); i + 1 < count; i += 2 * g) compare_exchange_local(keys, values, i, i + 1, flip);
    BARRIER();
  }
}

// Window copies between global and local memory (count keys from `base`), by every work-item.
DEVICE_FN void window_load(GLOBAL const key_t* keys, GLOBAL const value_t* values, LOCAL key_t* lk,
                           LOCAL value_t* lv, u64 base, u32 count) {
  for (u32 i = LOCAL_ID(); i < count; i += LOCAL_SIZE()) {
    lk[i] = keys[base + i];
#if HAS_VALUES
    lv[i] = values[base + i];
#endif
  }
  BARRIER();
}

DEVICE_FN void window_store(GLOBAL key_t* keys, GLOBAL value_t* values, LOCAL const key_t* lk,
                            LOCAL const value_t* lv, u64 base, u32 count) {
  for (u32 i = LOCAL_ID(); i < count; i += LOCAL_SIZE()) {
    keys[base + i] = lk[i];
#if HAS_VALUES
    values[base + i] = lv[i];
#endif
  }
}

#endif
