// Odd-even transposition sort (Locicero's "assembly lane"), for any n.
//   odd_even_window: each work-group sorts one window of WINDOW = 2*GROUP_SIZE keys in local memory by
//                    odd-even transposition. Windows start at `offset` + g*WINDOW. With offset 0 this
//                    is the local tile sort; the whole-array sort alternates offset 0 and GROUP_SIZE:
//                    the window slides by half a window each phase, which is block odd-even
//                    transposition over blocks of GROUP_SIZE keys (see docs/algorithms/odd-even.md).
// Specialised by keys.h's defines and GROUP_SIZE.
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256
#include "keys.h"
#include "odd_even_local.h"

#ifndef GROUP_SIZE
#error "GROUP_SIZE must be defined"
#endif
#define WINDOW (2 * GROUP_SIZE)

KERNEL odd_even_window(GLOBAL key_t* keys, GLOBAL value_t* values, u64 n, u64 offset, okey_t flip) {
  LOCAL_ARRAY key_t wk[WINDOW];
  LOCAL_VALUE_ARRAY(wv, WINDOW);
  const u64 base = offset + GROUP_ID() * WINDOW;
  const u32 count = base < n ? (u32)gs_min_u64((u64)WINDOW, n - base) : 0u;
  window_load(keys, values, wk, wv, base, count);
  odd_even_transposition_local(wk, wv, count, flip);
  window_store(keys, values, wk, wv, base, count);
}
