// Float keys without -0 and NaN (radix paths of NVIDIA GPUs):
// for every other float, ordered_key equals the plain sign flip k ^ ((signed)k >> (bits - 1) | sign),
// a few instructions per key less. radix_histogram_lanes (radix_lane_histogram.h) sets
// hist[RADIX_PASSES * RADIX] when some key is -0 or NaN; without such keys the onesweep passes take
// their digits from the plain flip, and the single tile checks its keys itself and moves them as
// their plain-flip images (radix_plain_float_key_inverse turns them back). The host zeroes that word.
// The one-block sorts (radix_small_bitonic.h, radix_single_tile.h) use the inverse for any float
// keys: for a key that is neither -0 nor NaN ordered_key is the plain flip; the single tile moves
// plain images of every float and takes ordered_key digits from them (radix_canonical_image), the
// network sorts a block that holds -0 or NaN as spread images (radix_spread_float_image).
#ifndef GPUSORT_RADIX_FLOAT_FLIP_H
#define GPUSORT_RADIX_FLOAT_FLIP_H
#include "radix_common.h"

#if KEY_KIND == 2
// 16-bit keys have 32-bit images (okey_t): their images keep the top 16 bits zero.
DEVICE_FN okey_t radix_plain_float_key(key_t k, okey_t flip) {
#if KEY_BITS == 16
  const okey_t neg = (okey_t)((i32)(i16)k >> 15);
  return ((okey_t)k ^ (neg | (okey_t)KEY_SIGN_BIT) ^ flip) & (okey_t)KEY_ALL_ONES;
#else
#if KEY_BITS == 32
  const okey_t neg = (okey_t)((i32)k >> 31);
#else
  const okey_t neg = (okey_t)((i64)k >> 63);
#endif
  return (okey_t)k ^ (neg | (okey_t)KEY_SIGN_BIT) ^ flip;
#endif
}
// its inverse (the plain flip is a bijection): the sign bit of o ^ flip says the key's sign
DEVICE_FN key_t radix_plain_float_key_inverse(okey_t o, okey_t flip) {
  const okey_t x = o ^ flip;
#if KEY_BITS == 16
  const okey_t was_positive = (okey_t)((i32)(i16)(u16)x >> 15);
#elif KEY_BITS == 32
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
// -0 or NaN: the keys whose ordered_key may differ from the plain flip (all NaNs but one do; the
// order does not change which), tested on the bits in two comparisons
DEVICE_FN bool radix_float_special(key_t k) {
  const okey_t bits = (okey_t)k & (okey_t)KEY_ALL_ONES;
  return (bits & ~(okey_t)KEY_SIGN_BIT) > (okey_t)KEY_EXP_MASK || bits == (okey_t)KEY_SIGN_BIT;
}

// Spread images (the CUDA bitonic network, radix_small_bitonic.h, for a block with -0 or NaN). The
// ordered_key images of -0 and +0 are equal, and so are those of all NaNs, while the radix sort keeps
// such keys in input order and a sorting network is not stable. A spread image gives such a key's
// image its input position p < room, in room the image space leaves free:
//   - the zeros' image Z becomes Z - room + p; every image below Z moves down by room to make space
//     (no float's image lies below 2^23 - 1, 2^52 - 1 for doubles, but the NaNs' in a descending sort);
//   - the NaNs' image becomes (ascending) ALL_ONES - room + p, above +inf's image and below ALL_ONES,
//     which the network pads with, or (descending, where NaNs come first) p.
// Every other image keeps its order, so the spread images sort in the radix sort's order; after the
// sort a -0 or NaN is read back from its input position, every other key turns back by the plain
// flip's inverse (ordered_key is the plain flip for it).
DEVICE_FN okey_t radix_zero_image(okey_t flip) { return ordered_key((key_t)0, flip); }
DEVICE_FN okey_t radix_nan_image(okey_t flip) { return ((okey_t)KEY_ALL_ONES ^ flip) & (okey_t)KEY_ALL_ONES; }
#define RADIX_NOT_SPREAD 0xFFFFFFFFu
#if KEY_BITS == 16
// 16-bit keys: their images leave the top half of okey_t free, so a spread image is the image shifted
// up by 16 with the input position (p < room <= 2^16) in the low half for a -0 or NaN: no room needs
// making below the zeros, where the images of -inf (0x3FF for f16, 0x7F for bf16) leave too little.
DEVICE_FN okey_t radix_spread_float_image(key_t k, u32 p, okey_t flip, okey_t room) {
  (void)room;
  const okey_t o = ordered_key(k, flip);
  return o << 16 | (o == radix_nan_image(flip) || o == radix_zero_image(flip) ? (okey_t)p : 0u);
}
DEVICE_FN u32 radix_spread_input_position(okey_t x, okey_t flip, okey_t room) {
  (void)room;
  const okey_t o = x >> 16;
  return o == radix_nan_image(flip) || o == radix_zero_image(flip) ? (u32)(x & 0xFFFFu) : RADIX_NOT_SPREAD;
}
DEVICE_FN key_t radix_spread_float_key(okey_t x, okey_t flip, okey_t room) {
  (void)room;
  return radix_plain_float_key_inverse(x >> 16, flip);
}
#else
DEVICE_FN okey_t radix_spread_nan_base(okey_t flip, okey_t room) {
  return flip != 0 ? (okey_t)0 : (okey_t)KEY_ALL_ONES - room;
}
DEVICE_FN okey_t radix_spread_float_image(key_t k, u32 p, okey_t flip, okey_t room) {
  const okey_t o = ordered_key(k, flip), zero = radix_zero_image(flip);
  return o == radix_nan_image(flip) ? radix_spread_nan_base(flip, room) + p
         : o == zero                ? zero - room + p
         : o < zero                 ? o - room
                                    : o;
}
// The input position a spread image holds (a -0 or NaN), or RADIX_NOT_SPREAD
DEVICE_FN u32 radix_spread_input_position(okey_t x, okey_t flip, okey_t room) {
  const okey_t from_nan = x - radix_spread_nan_base(flip, room), from_zero = x - (radix_zero_image(flip) - room);
  return from_nan < room ? (u32)from_nan : from_zero < room ? (u32)from_zero : RADIX_NOT_SPREAD;
}
// The key of any other spread image
DEVICE_FN key_t radix_spread_float_key(okey_t x, okey_t flip, okey_t room) {
  return radix_plain_float_key_inverse(x < radix_zero_image(flip) - room ? x + room : x, flip);
}
#endif
#endif

#endif  // GPUSORT_RADIX_FLOAT_FLIP_H
