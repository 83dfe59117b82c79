// Whether every segment given by offsets fits the tile bin's window (the tiles-or-portable bin,
// src/algorithms/segmented/segmented_sort.cpp): one work-item per segment sets *longer to 1 when its
// segment holds more than `window` keys. The host clears the word first and reads it back after.
//   OFFSET_BYTES: an offset (4 or 8), as in segmented_gather.cl
// NVRTC-CHECK-DEFINES: OFFSET_BYTES=4
#include "prelude.h"

#ifndef OFFSET_BYTES
#define OFFSET_BYTES 8
#endif
#if OFFSET_BYTES == 8
typedef u64 offset_t;
#else
typedef u32 offset_t;
#endif

// offsets: the buffer; first: where the segments' count + 1 offsets start in it (elements)
KERNEL segments_longer_than(GLOBAL const offset_t* offsets, u64 first, u64 count, u64 window, GLOBAL u32* longer) {
  const u64 s = GLOBAL_ID();
  if (s >= count) return;
  const u64 length = (u64)offsets[first + s + 1] - (u64)offsets[first + s];
  if (length > window) ATOMIC_OR_U32(longer, 1u);
}
