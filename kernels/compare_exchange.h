// The one compare-exchange: after it, position lo holds the key that comes first in the sort order
// (ties stay where they are). Local-memory and global-memory forms; values move with their keys.
// The two bodies are the same: OpenCL 1.2 has no generic address space, so each address space
// needs its own function.
#ifndef GPUSORT_COMPARE_EXCHANGE_H
#define GPUSORT_COMPARE_EXCHANGE_H
#include "keys.h"

DEVICE_FN void compare_exchange_local(LOCAL key_t* keys, LOCAL value_t* values, u32 lo, u32 hi, okey_t flip) {
  key_t a = keys[lo], b = keys[hi];
  if (key_before(b, a, flip)) {
    keys[lo] = b;
    keys[hi] = a;
#if HAS_VALUES
    value_t v = values[lo];
    values[lo] = values[hi];
    values[hi] = v;
#endif
  }
}

DEVICE_FN void compare_exchange_global(GLOBAL key_t* keys, GLOBAL value_t* values, u64 lo, u64 hi, okey_t flip) {
  key_t a = keys[lo], b = keys[hi];
  if (key_before(b, a, flip)) {
    keys[lo] = b;
    keys[hi] = a;
#if HAS_VALUES
    value_t v = values[lo];
    values[lo] = values[hi];
    values[hi] = v;
#endif
  }
}

#endif
