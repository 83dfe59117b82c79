// 0, 1, ..., n-1 into an index array of POSITION_BYTES-byte elements: the values argsort sorts
// beside the keys (algo::run and radix_sort, src/algorithms/positions.cpp; the CUDA one-launch radix
// kernels make them themselves) and the records' index (src/api/records_device.cpp). Made on the
// device, on the sort's own queue, so a caller's argsort costs no separate fill of its own
// (PyTorch's or CuPy's arange) before the sort.
// NVRTC-CHECK-DEFINES: POSITION_BYTES=8
#include "prelude.h"

#ifndef POSITION_BYTES
#define POSITION_BYTES 4
#endif
#if POSITION_BYTES == 8
typedef u64 position_t;
#else
typedef u32 position_t;
#endif

KERNEL fill_positions(GLOBAL position_t* out, u64 n) {
  const u64 i = GLOBAL_ID();
  if (i < n) out[i] = (position_t)i;
}

#if POSITION_BYTES == 8
// 4-byte positions widened to 8 bytes: an argsort with 8-byte indices whose sort carried 4-byte ones
// through its passes (the segmented onesweep bin: the pairs then pack into 8-byte words, and each
// pass moves 4 bytes less per key than the widening costs once; segmented_sort.cpp).
KERNEL widen_positions(GLOBAL const u32* in, GLOBAL u64* out, u64 n) {
  const u64 i = GLOBAL_ID();
  if (i < n) out[i] = (u64)in[i];
}
#endif
