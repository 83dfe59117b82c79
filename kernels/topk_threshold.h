// The threshold of a top-k or partition row (topk_select.cl): the per-row state words, the start of a
// row, and one digit pass's decision from its histogram. Both forms (whole rows in one work-group,
// rows cut among work-groups) narrow it the same way.
#ifndef GPUSORT_TOPK_THRESHOLD_H
#define GPUSORT_TOPK_THRESHOLD_H
#include "topk_common.h"

// The per-row state words (global for the long-row form): threshold prefix, its mask, the ties
// still to take, whether the threshold is final, and the keys it ties (those of the last bucket).
#define TK_PREFIX 0
#define TK_MASK 1
#define TK_REMAINING 2
#define TK_DONE 3
#define TK_TIED 4
#define TK_STATE_WORDS 5

// The start of a row's state: nothing decided, every key tied. A top-k's row of at most k keys takes
// all of them; an exact threshold (partition) is settled at once only for rows of at most one key.
DEVICE_FN void tk_start(u64* s, u64 length, u64 k, u32 exact) {
  s[TK_PREFIX] = 0;
  s[TK_MASK] = 0;
  s[TK_REMAINING] = k;
  s[TK_DONE] = (exact ? length <= 1 : k >= length) ? 1u : 0u;
  s[TK_TIED] = length;
}

// Whether the pass that picked a bucket of `count` keys, `remaining` of them still missing, settles
// the threshold: a top-k's once the bucket holds exactly the keys missing (all of them are in,
// whatever their lower digits); an exact one's once the bucket holds one key; both at the last digit.
DEVICE_FN int tk_settled(u64 count, u64 remaining, u32 shift, u32 exact) {
  return (exact ? count == 1 : count == remaining) || shift == 0;
}

// One pass's decision from its histogram: the bucket d with before < remaining <= before + count[d].
// Called by one work-item; `s` is the row's state (private copy).
DEVICE_FN void tk_pick(u64* s, GLOBAL const u32* count_of_digit, u32 pass, u32 exact) {
  u64 before = 0;
  u32 d = 0;
  for (; d < TK_RADIX - 1; ++d) {
    const u64 c = count_of_digit[d];
    if (before + c >= s[TK_REMAINING]) break;
    before += c;
  }
  const u32 shift = KEY_BITS - 8 * (pass + 1);
  s[TK_PREFIX] |= (u64)d << shift;
  s[TK_MASK] |= (u64)0xFFu << shift;
  s[TK_REMAINING] -= before;
  s[TK_TIED] = count_of_digit[d];
  if (tk_settled(count_of_digit[d], s[TK_REMAINING], shift, exact)) s[TK_DONE] = 1;
}

#endif  // GPUSORT_TOPK_THRESHOLD_H
