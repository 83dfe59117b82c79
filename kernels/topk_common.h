// What the top-k kernels share (topk_select.cl, topk_warp_rows.cl): the 8-bit digits of the ordered
// key, taken from the top, and the index writes of either width.
#ifndef GPUSORT_TOPK_COMMON_H
#define GPUSORT_TOPK_COMMON_H
#include "keys.h"

#define TK_RADIX 256u
#define TK_PASSES (KEY_BITS / 8)

// Digit `pass` of an ordered key, counted from the top.
DEVICE_FN u32 tk_digit(okey_t o, u32 pass) { return (u32)(o >> (KEY_BITS - 8 * (pass + 1))) & 0xFFu; }

// An index of index_bytes (4 or 8; 0: none written) at indices[at].
DEVICE_FN void tk_write_index(GLOBAL u32* indices, u32 index_bytes, u64 at, u64 position) {
  if (index_bytes == 8)
    ((GLOBAL u64*)indices)[at] = position;
  else if (index_bytes == 4)
    indices[at] = (u32)position;
}

#endif  // GPUSORT_TOPK_COMMON_H
