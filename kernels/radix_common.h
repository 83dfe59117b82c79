// Shared by every radix sort kernel: digits of ordered keys (the up-front histogram of the portable
// programs is radix_histogram.h, the onesweep program's radix_lane_histogram.h).
//
// Specialised by keys.h's defines and:
//   RADIX_BITS  digit width (8); RADIX = 2^RADIX_BITS digits; RADIX_PASSES = ceil(KEY_BITS / RADIX_BITS).
// Digit p of a key is bits [p*RADIX_BITS, (p+1)*RADIX_BITS) of ordered_key(k, flip): the transform
// gives signed, float and descending order; the sort moves the original bits (stable LSD order).
#ifndef GPUSORT_RADIX_COMMON_H
#define GPUSORT_RADIX_COMMON_H
#include "keys.h"

#ifndef RADIX_BITS
#error "RADIX_BITS must be defined"
#endif
#define RADIX (1u << RADIX_BITS)
#define RADIX_MASK (RADIX - 1u)
#define RADIX_PASSES ((KEY_BITS + RADIX_BITS - 1) / RADIX_BITS)

DEVICE_FN u32 radix_digit(key_t k, okey_t flip, u32 shift) {
  return (u32)(ordered_key(k, flip) >> shift) & RADIX_MASK;
}
#if KEY_KIND != 2 && KEY_KIND != 4
// Integer keys: ordered_key(k, flip) is k XOR a constant, so this turns an image back into its key
// (the one-block sorts, which move images). Complex keys have no inverse (NaN payloads and zero signs
// collapse in the image): the radix policy never gives them those sorts.
DEVICE_FN key_t radix_integer_key(okey_t image, okey_t flip) { return (key_t)(image ^ ordered_key((key_t)0, flip)); }
#endif

#endif  // GPUSORT_RADIX_COMMON_H
