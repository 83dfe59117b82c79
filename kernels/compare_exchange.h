// The compare-exchange family: every comparator of gpusort's sorting networks and transposition
// sorts is one of these. After it, the lower position holds the key that comes first; a swap
// happens only when the upper key comes strictly first, so ties stay where they are.
//   compare_exchange_local / _global: keys in memory, values (if any) follow their keys.
//   compare_exchange_by_position:     (key, original position) pairs in local memory, equal keys
//                                     ordered by position: any comparator network sorts stably.
//   COMPARE_EXCHANGE_REGS:            keys in registers, with whatever travels with them.
#ifndef GPUSORT_COMPARE_EXCHANGE_H
#define GPUSORT_COMPARE_EXCHANGE_H
#include "keys.h"

// Exchanges two lvalues of type T.
#define GS_SWAP(T, x, y)       \
  {                            \
    const T gs_swap_tmp = (x); \
    (x) = (y);                 \
    (y) = gs_swap_tmp;         \
  }

// Exchanges two values; nothing when the sort has no values.
#if HAS_VALUES
#define GS_SWAP_VALUES(x, y) GS_SWAP(value_t, x, y)
#else
#define GS_SWAP_VALUES(x, y)
#endif

// One body for both address spaces: OpenCL 1.2 has no generic address space, so the macro stamps
// a function per space (32-bit positions for a local tile, 64-bit for the whole array).
#define GS_DEFINE_COMPARE_EXCHANGE(name, SPACE, index_t)                                               \
  DEVICE_FN void name(SPACE key_t* keys, SPACE value_t* values, index_t lo, index_t hi, okey_t flip) { \
    const key_t a = keys[lo], b = keys[hi];                                                            \
    if (key_before(b, a, flip)) {                                                                      \
      keys[lo] = b;                                                                                    \
      keys[hi] = a;                                                                                    \
      GS_SWAP_VALUES(values[lo], values[hi])                                                           \
    }                                                                                                  \
  }
GS_DEFINE_COMPARE_EXCHANGE(compare_exchange_local, LOCAL, u32)
GS_DEFINE_COMPARE_EXCHANGE(compare_exchange_global, GLOBAL, u64)

// lk[] keys, lp[] their original positions; values are not moved here (the tile scatters them
// once at the end through the positions, see merge_tile.h).
DEVICE_FN void compare_exchange_by_position(LOCAL key_t* lk, LOCAL u32* lp, u32 lo, u32 hi, okey_t flip) {
  const key_t a = lk[lo], b = lk[hi];
  const order_t oa = order_key(a, flip), ob = order_key(b, flip);
  const u32 pa = lp[lo], pb = lp[hi];
  if (order_before(ob, oa) || (pb < pa && !order_before(oa, ob))) {
    lk[lo] = b;
    lk[hi] = a;
    lp[lo] = pb;
    lp[hi] = pa;
  }
}

// Registers: ka and kb are key variables, compared only when `active` holds (bitonic: the upper
// position exists). It is tested in one condition with the comparison because a separate `if`
// around the comparator compiles to different code (NVRTC 13). swap_companions exchanges
// what travels with the keys: GS_SWAP_VALUES(va, vb), or GS_SWAP(u32, pa, pb) for positions.
#define COMPARE_EXCHANGE_REGS(active, ka, kb, flip, swap_companions) \
  {                                                                   \
    if ((active) && key_before(kb, ka, flip)) {                       \
      GS_SWAP(key_t, ka, kb)                                          \
      swap_companions                                                 \
    }                                                                 \
  }

#endif
