// Test entry points for the shared kernel primitives, so kernel_pieces_test.cpp can check each
// piece on the device against its host reference: the key order (keys.h), the rank search
// (rank_search.h), the merge-path split (merge_path.h) and the float images of the radix sort's
// one-block sorts (radix_float_flip.h). Not used by any algorithm; embedded
// beside the library's kernels only when the tests are built (CMakeLists.txt).
#include "keys.h"
#include "rank_search.h"
#include "merge_path.h"
#ifndef RADIX_BITS
#define RADIX_BITS 8  // radix_common.h (included by radix_float_flip.h) asks for a digit width
#endif
#include "radix_float_flip.h"

// out[i] = ordered_key(in[i], flip)
KERNEL test_ordered_keys(GLOBAL const key_t* in, GLOBAL okey_t* out, u64 n, okey_t flip) {
  u64 i = GLOBAL_ID();
  if (i < n) out[i] = ordered_key(in[i], flip);
}

// For each probe: keys of run strictly before it, and keys of run not after it.
KERNEL test_rank_bounds(GLOBAL const key_t* run, u64 len, GLOBAL const key_t* probes, u64 m, GLOBAL u64* lower,
                        GLOBAL u64* upper, okey_t flip) {
  u64 i = GLOBAL_ID();
  if (i >= m) return;
  okey_t ox = ordered_key(probes[i], flip);
  lower[i] = rank_search_global(run, len, ox, RANK_LOWER, flip);
  upper[i] = rank_search_global(run, len, ox, RANK_UPPER, flip);
}

// out[d] = keys of a among the first d keys of the stable merge of a and b, for d = 0 .. a_len + b_len.
KERNEL test_merge_path(GLOBAL const key_t* a, u64 a_len, GLOBAL const key_t* b, u64 b_len, GLOBAL u64* out,
                       okey_t flip) {
  u64 d = GLOBAL_ID();
  if (d <= a_len + b_len) out[d] = merge_path_global(a, a_len, b, b_len, d, flip);
}

#if KEY_KIND == 2
// out[i] = the canonical image of in[i]'s plain flip (radix_float_flip.h), which must be ordered_key
KERNEL test_canonical_images(GLOBAL const key_t* in, GLOBAL okey_t* out, u64 n, okey_t flip) {
  u64 i = GLOBAL_ID();
  if (i < n) out[i] = radix_canonical_image(radix_plain_float_key(in[i], flip), flip);
}
// image[i] = in[i]'s spread image at input position i; back[i] = the input position that image
// holds, or the key it turns back into (radix_float_flip.h)
KERNEL test_spread_images(GLOBAL const key_t* in, GLOBAL okey_t* image, GLOBAL okey_t* back, u64 n, okey_t flip,
                          okey_t room) {
  u64 i = GLOBAL_ID();
  if (i >= n) return;
  const okey_t x = radix_spread_float_image(in[i], (u32)i, flip, room);
  const u32 from = radix_spread_input_position(x, flip, room);
  image[i] = x;
  back[i] = from != RADIX_NOT_SPREAD ? (okey_t)from : (okey_t)radix_spread_float_key(x, flip, room);
}
#endif
