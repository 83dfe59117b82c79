// Float keys without -0 and NaN (radix paths of NVIDIA GPUs, RADIX_FLOAT_FLAG = 1 from the host for float keys):
// for every other float, ordered_key equals the plain sign flip k ^ ((signed)k >> (bits - 1) | sign),
// a few instructions per key less. radix_histogram_lanes (radix_lane_histogram.h) sets
// hist[RADIX_PASSES * RADIX] when some key is -0 or NaN; without such keys the onesweep passes take
// their digits from the plain flip, and the single tile checks its keys itself and moves them as
// their plain-flip images (radix_plain_float_key_inverse turns them back). The host zeroes that word.
// The small-n bitonic network (radix_small_bitonic.h) uses both for any float keys: for a key that is
// neither -0 nor NaN they are ordered_key and its inverse.
#ifndef GPUSORT_RADIX_FLOAT_FLIP_H
#define GPUSORT_RADIX_FLOAT_FLIP_H
#include "radix_common.h"

#if KEY_KIND == 2
DEVICE_FN okey_t radix_plain_float_key(key_t k, okey_t flip) {
#if KEY_BITS == 32
  const okey_t neg = (okey_t)((i32)k >> 31);
#else
  const okey_t neg = (okey_t)((i64)k >> 63);
#endif
  return (okey_t)k ^ (neg | (okey_t)KEY_SIGN_BIT) ^ flip;
}
// its inverse (the plain flip is a bijection): the sign bit of o ^ flip says the key's sign
DEVICE_FN key_t radix_plain_float_key_inverse(okey_t o, okey_t flip) {
  const okey_t x = o ^ flip;
#if KEY_BITS == 32
  const okey_t was_positive = (okey_t)((i32)x >> 31);
#else
  const okey_t was_positive = (okey_t)((i64)x >> 63);
#endif
  return (key_t)(x ^ (~was_positive | (okey_t)KEY_SIGN_BIT));
}
#endif

#endif  // GPUSORT_RADIX_FLOAT_FLIP_H
