// Float keys without -0 and NaN (radix paths of NVIDIA GPUs, RADIX_FLOAT_FLAG = 1 from the host for float keys):
// for every other float, ordered_key equals the plain sign flip k ^ ((signed)k >> (bits - 1) | sign),
// a few instructions per key less. radix_histogram_lanes (radix_lane_histogram.h) sets
// hist[RADIX_PASSES * RADIX] when some key is -0 or NaN; without such keys the onesweep passes take
// their digits from the plain flip, and the single tile checks its keys itself and moves them as
// their plain-flip images (radix_plain_float_key_inverse turns them back). The host zeroes that word.
// The one-block sorts (radix_small_bitonic.h, radix_single_tile.h) use both for any float keys: for a
// key that is neither -0 nor NaN they are ordered_key and its inverse; the single tile moves plain
// images of every float and takes ordered_key digits from them (radix_canonical_image).
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
// The ordered_key image of the key whose plain flip is x: ordered_key(k, flip) ==
// radix_canonical_image(radix_plain_float_key(k, flip), flip) for every float k. In the ascending
// plain image y, -0 is SIGN - 1 (+0 is SIGN), negative NaNs lie below the image of -inf (SIGN - 1 -
// EXP_MASK) and positive NaNs above that of +inf (SIGN | EXP_MASK). The single tile moves plain
// images (a bijection) and takes digits from these where its keys hold -0 or NaN. Spelled out rather
// than as ordered_key(radix_plain_float_key_inverse(x, flip), flip), which is the same map in 7 more
// SASS instructions per key and pass (the f32 single tile, NVRTC 13.0, sm_90).
DEVICE_FN okey_t radix_canonical_image(okey_t x, okey_t flip) {
  const okey_t y = (x ^ flip) & (okey_t)KEY_ALL_ONES, sign = (okey_t)KEY_SIGN_BIT;
  okey_t o = y == sign - 1u ? sign : y;
  o = y < sign - 1u - (okey_t)KEY_EXP_MASK || y > (sign | (okey_t)KEY_EXP_MASK) ? (okey_t)KEY_ALL_ONES : o;
  return (o ^ flip) & (okey_t)KEY_ALL_ONES;
}
// -0 or NaN: the keys whose ordered_key differs from the plain flip
DEVICE_FN bool radix_float_special(key_t k, okey_t flip) { return ordered_key(k, flip) != radix_plain_float_key(k, flip); }
// The image the bitonic network moves: the plain flip where the block holds no -0 or NaN, else ordered_key
DEVICE_FN okey_t radix_float_image(key_t k, okey_t flip, bool plain) {
  return plain ? radix_plain_float_key(k, flip) : ordered_key(k, flip);
}

#if GS_CUDA
// Float keys with -0 or NaN in the bitonic network (CUDA: radix_small_bitonic.h): it sorts ordered_key
// images, which are equal for -0 and +0 and for all NaNs, while the radix sort keeps such keys in
// input order. Before sorting, the zeros' bits are stashed in input order at the front of
// a buffer of n keys and the NaNs' at its back (the last NaN first); after it, the run of zero images
// takes the stashed zeros in order and the run of NaN images the stashed NaNs.
DEVICE_FN okey_t radix_zero_image(okey_t flip) { return ordered_key((key_t)0, flip); }
DEVICE_FN okey_t radix_nan_image(okey_t flip) { return (okey_t)KEY_ALL_ONES ^ flip; }
// The runs' first sorted positions: starts[0] (zeros) and starts[1] (NaNs) hold all ones before, and
// every sorted position p < n offers its image; read them after a barrier.
DEVICE_FN void radix_find_special_runs(okey_t image, u32 p, u32 n, okey_t flip, u32* starts) {
  if (p < n && image == radix_zero_image(flip)) atomicMin(&starts[0], p);
  if (p < n && image == radix_nan_image(flip)) atomicMin(&starts[1], p);
}
// The key at sorted position p < n, from its image and the stash.
DEVICE_FN key_t radix_restore_special(okey_t image, u32 p, const key_t* stash, u32 n, const u32* starts, okey_t flip) {
  return image == radix_zero_image(flip)  ? stash[p - starts[0]]
         : image == radix_nan_image(flip) ? stash[n - 1u - (p - starts[1])]
                                          : radix_plain_float_key_inverse(image, flip);
}
#endif  // GS_CUDA
#endif

#endif  // GPUSORT_RADIX_FLOAT_FLIP_H
