// CUDA radix sort of small inputs in one launch: radix_single_tile_<threads>_<items>
// (radix_single_tile.h; the host's RadixPath::single_tile), and up to the host's network caps
// radix_small_bitonic_<log2 N> (radix_small_bitonic.h). A program of its own, so that a small
// sort neither compiles nor looks up the onesweep program and its dozen switches (the host's whole
// path for a few thousand keys is microseconds), and the onesweep programs do not carry these kernels.
// Specialised by keys.h's defines, RADIX_BITS and RADIX_FLOAT_FLAG (src/algorithms/radix_policy.cpp,
// to_defines).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 RADIX_FLOAT_FLAG=1
#include "radix_common.h"

#if !GS_CUDA
#error "radix_single_tile.cl is for CUDA; other devices take the single work-group path (radix_single_group.cl)"
#endif
#ifndef RADIX_FLOAT_FLAG
#error "radix_single_tile.cl takes RADIX_FLOAT_FLAG from the host"
#endif
#if RADIX_FLOAT_FLAG && KEY_KIND != 2  // the plain sign flip is for float keys
#undef RADIX_FLOAT_FLAG
#define RADIX_FLOAT_FLAG 0
#endif

// Both kernels read the input where it lies (keys_in, values_in: the output buffers themselves in
// place, another pair out of place, so an out-of-place sort costs no copy launch) and write keys and
// values. positions != 0 (argsort; 4- or 8-byte values sorted in place): each value is its key's
// input position, made here instead of read, so an argsort costs no fill launch either.
DEVICE_FN value_t radix_input_value(const value_t* values_in, u32 i, u32 positions) {
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
  return positions ? (value_t)i : values_in[i];
#else
  (void)positions;  // the host makes positions of 4 or 8 bytes only
  return values_in[i];
#endif
}

#include "radix_single_tile.h"
#include "radix_small_bitonic.h"
