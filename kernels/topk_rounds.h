// Rows cut among work-groups (the rounds and partition's counts in topk_select.cl): the per-row state
// words after the threshold's, each group's range of its row's source, and the counts of the groups
// ahead.
#ifndef GPUSORT_TOPK_ROUNDS_H
#define GPUSORT_TOPK_ROUNDS_H
#include "topk_group.h"
#include "topk_threshold.h"

#define TK_SOURCE 5        // 0: the row itself; 1, 2: candidate buffer A, B
#define TK_COUNT 6         // the entries of the source
#define TK_FILTER_ROUND 7  // the round whose filter runs (TK_NO_ROUND: none yet)
#define TK_WRITTEN 8       // the selected keys written out before this round
#define TK_SPLIT_STATE_WORDS 9
#define TK_NO_ROUND 0xFFFFFFFFu

DEVICE_FN u64 tk_other_source(u64 source) { return source == 1 ? 2u : 1u; }

// A split row's state before its first round: nothing decided, the `count` entries of `source` (0:
// the row itself; 1: candidate buffer A) all tied. A row settled at once (k >= count) has round 0's
// filter take its ties.
DEVICE_FN void tk_split_start(GLOBAL u64* gs, u64 source, u64 count, u64 k, u32 exact) {
  u64 s[TK_STATE_WORDS];
  tk_start(s, count, k, exact);
  for (u32 w = 0; w < TK_STATE_WORDS; ++w) gs[w] = s[w];
  gs[TK_SOURCE] = source;
  gs[TK_COUNT] = count;
  gs[TK_FILTER_ROUND] = s[TK_DONE] ? 0u : TK_NO_ROUND;
  gs[TK_WRITTEN] = 0;
}

// A group's range [lo, hi) of its row's source of `count` entries: the row in chunks of `chunk`,
// candidates in equal shares among the row's groups.
DEVICE_FN void tk_source_range(u64 source, u64 count, u64 g, u32 groups_per_row, u64 chunk, u64* lo, u64* hi) {
  const u64 share = source == 0 ? chunk : (count + groups_per_row - 1) / groups_per_row;
  const u64 a = g * share, b = (g + 1) * share;
  *lo = a < count ? a : count;
  *hi = b < count ? b : count;
}

// The first entry of row r's candidate buffer `source` (1 or 2), each buffer rows x cap entries.
DEVICE_FN u64 tk_candidates_base(u64 source, u64 r, u64 rows, u64 cap) { return ((source - 1) * rows + r) * cap; }

// The keys of a group's range [g * chunk, (g + 1) * chunk) of its row.
DEVICE_FN u64 tk_range_end(u64 g, u64 chunk, u64 length) { return (g + 1) * chunk < length ? (g + 1) * chunk : length; }

// The row's earlier groups' keys before the threshold and ties (topk_count's counts), in every
// work-item of the group.
DEVICE_FN void tk_counts_ahead(GLOBAL const u32* counts, u64 r, u64 g, u32 groups_per_row, LOCAL u64* sums,
                               u64* before, u64* ties) {
  u64 b = 0, e = 0;
  GLOBAL const u32* row_counts = counts + r * groups_per_row * 2;
  for (u64 j = LOCAL_ID(); j < g; j += GROUP_SIZE) {
    b += row_counts[j * 2];
    e += row_counts[j * 2 + 1];
  }
  *before = tk_group_sum(b, sums);
  *ties = tk_group_sum(e, sums);
}

#endif  // GPUSORT_TOPK_ROUNDS_H
