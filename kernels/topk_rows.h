// Whole rows in one work-group (topk_rows, topk_partition_rows in topk_select.cl): one row, or up to
// TK_MAX_ROWS_PER_GROUP short rows with a sub-group each; the row's passes in local memory, its tied
// keys moved to local candidates once they fit, and the collection from them.
#ifndef GPUSORT_TOPK_ROWS_H
#define GPUSORT_TOPK_ROWS_H
#include "topk_group.h"
#include "topk_threshold.h"

#define TK_MAX_ROWS_PER_GROUP 8
// Local candidates (topk_rows): a row's tied keys move to local memory once they fit, and its
// later passes read only them. The group's rows share TK_LOCAL_CANDIDATES entries equally.
#define TK_LOCAL_CANDIDATES 1024
// The rows form's state words after tk_start's: whether the row's local candidates are its source,
// how many, the selected keys its filter wrote, whether all its k are written.
#define TK_IN_LOCAL 5
#define TK_LOCAL_COUNT 6
#define TK_LOCAL_WRITTEN 7
#define TK_FINISHED 8
#define TK_ROW_STATE_WORDS 9

// A sub-row's one filtering read of its row (mine: the sub-group filters; every work-item of the
// group calls it): the keys before the threshold go to the output at out + their rank, in position
// order; the tied keys, where the threshold is settled (done), the first `remaining` by position to
// out + k - remaining + their rank, else all of them with their positions to the local candidates.
DEVICE_FN void tk_rows_filter(GLOBAL const key_t* row, u64 length, okey_t flip, okey_t prefix, okey_t mask, int mine,
                              int done, u64 remaining, u64 k, GLOBAL key_t* out_keys, GLOBAL u32* indices,
                              u32 index_bytes, u64 out, u64 pos_base, LOCAL key_t* cand_keys, LOCAL u32* cand_pos,
                              LOCAL u32* scratch, u32 width) {
  const u32 lane = LOCAL_ID() & (width - 1);
  u64 before_ahead = 0, ties_ahead = 0;
  for (u64 start = 0; start < length; start += (u64)width * TK_ITEMS) {
    const u64 first = start + (u64)lane * TK_ITEMS;
    key_t v[TK_ITEMS];
    u32 before, tied;
    const u32 counts = tk_classify_items(row, first, length, mine, flip, prefix, mask, v, &before, &tied);
    u32 total;
    const u32 excl = tk_tile_scan(counts, scratch, width, &total);
    u64 b = before_ahead + (excl & 0xFFFFu), e = ties_ahead + (excl >> 16);
    if (before | tied) {
#pragma unroll
      for (u32 j = 0; j < TK_ITEMS; ++j) {
        const u32 is_before = (before >> j) & 1u, is_tied = (tied >> j) & 1u;
        if (is_before) {
          out_keys[out + b] = v[j];
          tk_write_index(indices, index_bytes, out + b, pos_base + first + j);
        } else if (is_tied && done) {
          if (e < remaining) {
            const u64 at = out + (k - remaining) + e;
            out_keys[at] = v[j];
            tk_write_index(indices, index_bytes, at, pos_base + first + j);
          }
        } else if (is_tied) {
          cand_keys[e] = v[j];
          cand_pos[e] = (u32)(pos_base + first + j);
        }
        b += is_before;
        e += is_tied;
      }
    }
    before_ahead += total & 0xFFFFu;
    ties_ahead += total >> 16;
  }
}

// The passes of a whole row in one work-group or sub-group (topk_rows, topk_partition_rows): the
// sub-group of `width` work-items narrows its row's threshold in my_state (local,
// TK_ROW_STATE_WORDS) with my_hist (`copies` counting copies, TK_HIST_STRIDE words each; the first
// holds the sums), until every row of the group is settled. Every
// work-item of the group calls it; `valid` 0: the sub-group has no row (past the last). flags: two
// local words. cap != 0 (a top-k): once the tied bucket holds at most cap keys, the row is read one
// last time (tk_rows_filter, writing to out_keys / indices at out) and the later passes read its
// local candidates (my_cand_keys / my_cand_pos, cap entries) instead.
DEVICE_FN void tk_rows_threshold(GLOBAL const key_t* row, u64 length, u64 k, okey_t flip, u32 exact, int valid,
                                 u32 rows_per_group, LOCAL u32* my_hist, LOCAL u64* my_state, LOCAL u64* state,
                                 LOCAL u32* scratch, LOCAL u32* flags, u32 cap, LOCAL key_t* my_cand_keys,
                                 LOCAL u32* my_cand_pos, GLOBAL key_t* out_keys, GLOBAL u32* indices,
                                 u32 index_bytes, u64 out, u64 pos_base, u32 copies) {
  const u32 t = LOCAL_ID(), width = GROUP_SIZE / rows_per_group, lane = t & (width - 1);
  LOCAL u32* my_copy = my_hist + (lane % copies) * TK_HIST_STRIDE;
  if (lane == 0) {
    u64 s[TK_STATE_WORDS];
    tk_start(s, length, k, exact);
    if (!valid) s[TK_DONE] = 1;
    for (u32 w = 0; w < TK_STATE_WORDS; ++w) my_state[w] = s[w];
    my_state[TK_IN_LOCAL] = 0;
    my_state[TK_LOCAL_COUNT] = 0;
    my_state[TK_LOCAL_WRITTEN] = 0;
    my_state[TK_FINISHED] = 0;
  }
  BARRIER();
  for (u32 pass = 0; pass < TK_PASSES; ++pass) {
    if (t == 0) {
      u32 any = 0;
      for (u32 j = 0; j < rows_per_group; ++j) any |= state[j * TK_ROW_STATE_WORDS + TK_DONE] ? 0u : 1u;
      flags[0] = any;
    }
    BARRIER();
    // Uniform: read by every work-item after the barrier that wrote it. Where the loop runs once
    // (1-byte keys) the exit is left out: PoCL 3.1 built it wrongly there, and rows that shared a
    // group with a missing row (past the last) came out unselected; the one pass costs little.
    if (TK_PASSES > 1 && !flags[0]) break;
    const int done = my_state[TK_DONE] != 0, in_local = my_state[TK_IN_LOCAL] != 0;
    const u64 local_count = my_state[TK_LOCAL_COUNT];
    const okey_t prefix = (okey_t)my_state[TK_PREFIX], mask = (okey_t)my_state[TK_MASK];
    tk_clear_copies(my_hist, copies, lane, width);
    BARRIER();
    if (!done && in_local) {
      for (u64 i = lane; i < local_count; i += width) {
        const okey_t o = ordered_key(my_cand_keys[i], flip);
        if ((o & mask) == prefix) ATOMIC_ADD_U32(&my_copy[tk_digit(o, pass)], 1u);
      }
    } else if (!done) {
      tk_count_digits(row, lane, length, width, flip, prefix, mask, pass, my_copy);
    }
    BARRIER();
    // unconditional (a no-op for one copy): PoCL replicates the code after a barrier under a branch
    tk_fold_copies(my_hist, copies, lane, width);
    BARRIER();
    // The decision in parallel: each lane sums a run of bins, a scan over the lanes finds the lane
    // whose run holds the k-th key, and that lane walks its run (tk_pick's rule).
    const u32 per_lane = width >= TK_RADIX ? 1u : TK_RADIX / width, first = lane * per_lane;
    u32 sum = 0;
    if (!done && first < TK_RADIX)
      for (u32 d = first; d < first + per_lane; ++d) sum += my_hist[d];
    const u64 wanted = my_state[TK_REMAINING];  // read before the scan's barriers: one lane rewrites it
    const u32 before_lane = tk_sub_scan(sum, scratch, width);
    if (!done && sum != 0 && before_lane < wanted && wanted <= (u64)before_lane + sum) {
      u64 before = before_lane;
      u32 d = first;
      for (; d < first + per_lane - 1; ++d) {
        if (before + my_hist[d] >= wanted) break;
        before += my_hist[d];
      }
      const u32 shift = KEY_BITS - 8 * (pass + 1);
      my_state[TK_PREFIX] |= (u64)d << shift;
      my_state[TK_MASK] |= (u64)0xFFu << shift;
      my_state[TK_REMAINING] = wanted - before;
      my_state[TK_TIED] = my_hist[d];
      if (tk_settled(my_hist[d], wanted - before, shift, exact)) my_state[TK_DONE] = 1;
    }
    BARRIER();
    // the last read of the row, where its bucket fits the local candidates (or it settled)
    const int filter = !done && !in_local && cap != 0 && (my_state[TK_DONE] || my_state[TK_TIED] <= cap);
    if (tk_group_any(filter, lane, flags + 1)) {
      tk_rows_filter(row, length, flip, (okey_t)my_state[TK_PREFIX], (okey_t)my_state[TK_MASK], filter,
                     my_state[TK_DONE] != 0, my_state[TK_REMAINING], k, out_keys, indices, index_bytes, out,
                     pos_base, my_cand_keys, my_cand_pos, scratch, width);
      if (filter && lane == 0) {
        my_state[TK_IN_LOCAL] = 1;
        my_state[TK_LOCAL_COUNT] = my_state[TK_TIED];
        my_state[TK_LOCAL_WRITTEN] = k - my_state[TK_REMAINING];
        my_state[TK_FINISHED] = my_state[TK_DONE];
      }
      BARRIER();
    }
  }
}

// The last pass over a settled row's local candidates (mine; every work-item of the group calls it,
// bound: the same for all, at least every sub-group's count): those before the threshold go to the
// output after the `written` ones, in position order, then the first `remaining` ties by position.
DEVICE_FN void tk_local_collect(LOCAL const key_t* cand_keys, LOCAL const u32* cand_pos, u64 count, u64 bound,
                                int mine, okey_t flip, okey_t prefix, okey_t mask, u64 remaining, u64 k, u64 written,
                                GLOBAL key_t* out_keys, GLOBAL u32* indices, u32 index_bytes, u64 out,
                                LOCAL u32* scratch, u32 width) {
  const u32 t = LOCAL_ID(), lane = t & (width - 1), last = (t | (width - 1));
  u64 before_ahead = 0, ties_ahead = 0;
  for (u64 start = 0; start < bound; start += width) {
    const u64 i = start + lane;
    u32 flags = 0;
    key_t key = 0;
    if (mine && i < count) {
      key = cand_keys[i];
      const okey_t o = ordered_key(key, flip) & mask;
      flags = (o < prefix ? 1u : 0u) | (o == prefix ? 0x10000u : 0u);
    }
    const u32 excl = tk_sub_scan(flags, scratch, width);
    const u32 total = scratch[last];
    BARRIER();  // every work-item has read the total before the next tile's scan writes over it
    const u64 tie_rank = ties_ahead + (excl >> 16);
    if ((flags & 1u) || (flags && tie_rank < remaining)) {
      const u64 at = out + ((flags & 1u) ? written + before_ahead + (excl & 0xFFFFu) : (k - remaining) + tie_rank);
      out_keys[at] = key;
      tk_write_index(indices, index_bytes, at, cand_pos[i]);
    }
    before_ahead += total & 0xFFFFu;
    ties_ahead += total >> 16;
  }
}

// The counting copies each of a group's rows takes: the group's TK_HIST_COPIES_MAX shared equally,
// at most `wanted` (the host's choice; 1: one histogram a row).
DEVICE_FN u32 tk_row_copies(u32 wanted, u32 rows_per_group) {
  const u32 share = TK_HIST_COPIES_MAX / rows_per_group;
  return wanted < 1u ? 1u : wanted < share ? wanted : share;
}

#endif  // GPUSORT_TOPK_ROWS_H
