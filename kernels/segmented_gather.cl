// The portable segmented sort's own steps (src/algorithms/segmented/segmented_portable.cpp),
// around its two 1-D sorts: each sorted position's segment, the elements gathered from the input
// by position, and argsort's indices local to their segment. Elements move as their bits.
//   POSITION_BYTES: the positions 0..n-1 (4, or 8 from 2^32 elements)
//   SEGMENT_BYTES:  a segment number (4, or 8 from 2^32 segments)
//   OFFSET_BYTES:   an offset of segments given by offsets (4 or 8; uniform rows do not read it)
// NVRTC-CHECK-DEFINES: POSITION_BYTES=8 SEGMENT_BYTES=8 OFFSET_BYTES=4
#include "prelude.h"

#ifndef POSITION_BYTES
#define POSITION_BYTES 4
#endif
#ifndef SEGMENT_BYTES
#define SEGMENT_BYTES 4
#endif
#ifndef OFFSET_BYTES
#define OFFSET_BYTES 8
#endif
#if POSITION_BYTES == 8
typedef u64 position_t;
#else
typedef u32 position_t;
#endif
#if SEGMENT_BYTES == 8
typedef u64 segment_t;
#else
typedef u32 segment_t;
#endif
#if OFFSET_BYTES == 8
typedef u64 offset_t;
#else
typedef u32 offset_t;
#endif

// The segment holding position p: the last s with offsets[s] <= p, so that empty segments (equal
// offsets) before a nonempty one are passed over. offsets[0] == 0 <= p < offsets[count] == n.
DEVICE_FN u64 segment_by_offsets(GLOBAL const offset_t* offsets, u64 count, u64 p) {
  u64 lo = 0, hi = count;  // offsets[lo] <= p < offsets[hi]
  while (hi - lo > 1) {
    const u64 mid = lo + (hi - lo) / 2;
    if ((u64)offsets[mid] <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

KERNEL segment_of_rows(GLOBAL const position_t* positions, GLOBAL segment_t* segments, u64 n, u64 length) {
  const u64 i = GLOBAL_ID();
  if (i < n) segments[i] = (segment_t)((u64)positions[i] / length);
}

// offsets: the buffer; first: where the segments' count + 1 offsets start in it (elements)
KERNEL segment_of_offsets(GLOBAL const position_t* positions, GLOBAL segment_t* segments, u64 n,
                          GLOBAL const offset_t* offsets, u64 first, u64 count) {
  const u64 i = GLOBAL_ID();
  if (i < n) segments[i] = (segment_t)segment_by_offsets(offsets + first, count, (u64)positions[i]);
}

// out[i] = in[positions[i]], for elements of 1, 2, 4, 8 and 16 bytes.
#define GATHER_KERNEL(NAME, T, WORDS)                                                                  \
  KERNEL NAME(GLOBAL const T* in, GLOBAL T* out, GLOBAL const position_t* positions, u64 n) {         \
    const u64 i = GLOBAL_ID();                                                                       \
    if (i >= n) return;                                                                              \
    const u64 p = (u64)positions[i];                                                                 \
    for (u32 w = 0; w < WORDS; ++w) out[i * WORDS + w] = in[p * WORDS + w];                          \
  }
GATHER_KERNEL(gather_1, u8, 1)
GATHER_KERNEL(gather_2, u16, 1)
GATHER_KERNEL(gather_4, u32, 1)
GATHER_KERNEL(gather_8, u64, 1)
GATHER_KERNEL(gather_16, u64, 2)

// argsort: each sorted position's index within its segment, as 4- or 8-byte indices.
#define LOCAL_INDEX_KERNELS(SUFFIX, T)                                                                        \
  KERNEL local_indices_of_rows_##SUFFIX(GLOBAL const position_t* positions, GLOBAL T* indices, u64 n,          \
                                       u64 length) {                                                          \
    const u64 i = GLOBAL_ID();                                                                                \
    if (i < n) indices[i] = (T)((u64)positions[i] % length);                                                  \
  }                                                                                                           \
  KERNEL local_indices_of_offsets_##SUFFIX(GLOBAL const position_t* positions, GLOBAL const segment_t* segments, \
                                          GLOBAL T* indices, u64 n, GLOBAL const offset_t* offsets, u64 first) { \
    const u64 i = GLOBAL_ID();                                                                                \
    if (i < n) indices[i] = (T)((u64)positions[i] - (u64)offsets[first + (u64)segments[i]]);                  \
  }
LOCAL_INDEX_KERNELS(4, u32)
LOCAL_INDEX_KERNELS(8, u64)
