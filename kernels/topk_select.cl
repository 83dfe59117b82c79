// Top-k by radix selection: the k first keys of each uniform row (rows x length) in the order of
// ordered_key(k, flip) (keys.h: flip all ones for the k largest), ties taken by the lower position.
//
// Selection narrows a threshold on the ordered key from its top digit down, 8 bits a pass: a
// histogram of the digit among the keys that still match the bits decided so far finds the bucket
// that holds the k-th key; its digit joins the threshold and the keys of the buckets before it are
// in. The passes stop as soon as that bucket holds exactly the keys still missing (all of them in),
// or the last digit is decided, so narrow or clustered data take fewer passes than the key has
// digits. The threshold is then (prefix, mask): a key is before it where (o & mask) < prefix, tied
// where (o & mask) == prefix, and `remaining` ties are in, the first ones by position.
//
// Collection reads the row in position order, a group tile at a time: a key is in if it is before
// the threshold, or tied with fewer than `remaining` ties ahead of it; its output place is the
// number of selected keys before it. The output is therefore the selected keys in position order,
// the same on every device (the host sorts them afterwards where a sorted top-k is asked for).
//
// Two forms, the same arithmetic:
//  - topk_rows: whole rows in one work-group (one long row, or up to 8 short rows with a sub-group
//    each), every pass and the collection in one launch (state in local memory);
//  - long rows: `groups_per_row` work-groups per row, the state per row in global memory, three
//    launches per digit pass (topk_round_init, then topk_round_histogram + topk_round_pick +
//    topk_round_filter per digit; below), so nothing comes back to the host between passes.
// Indices (index_bytes 4 or 8; 0: none written) are positions within the row.
//
// Partition (numpy's, ascending; topk_partition_rows, topk_partition_scatter) selects the kth+1
// smallest the same way, with one stop rule changed (`exact`): the passes run until the bucket holds
// one key or the last digit is decided, so that the tied keys all equal the key of rank kth. Each
// row is then written in three runs, each in position order: the keys before the threshold, the tied
// keys, the rest. Its key of rank kth (as a stable sort ranks them) lands at place kth.
//
// The building blocks: topk_threshold.h (the row's state, a pass's decision), topk_group.h (a group's
// passes over a range of a row), topk_rows.h (whole rows in one work-group), topk_rounds.h (rows cut
// among work-groups).
//
// Specialised by keys.h's defines (VALUE_BYTES 0), GROUP_SIZE (a power of two, 64..1024) and, on NVIDIA
// GPUs, TK_WARP_SCAN=1 (tk_sub_scan in warp shuffles).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 TK_WARP_SCAN=1
#include "segmented_offsets.h"
#include "topk_rounds.h"
#include "topk_rows.h"

// ---- whole rows in one work-group: one row, or rows_per_group short rows ----
// Each row has a sub-group of GROUP_SIZE / rows_per_group work-items (a power of two, at least 32),
// its own histogram and state. The group runs the passes until every one of its rows is settled.
// local_candidates 0: every pass reads the row, then one collection read (tk_collect).
//
// Parts (parts > 1; rows_per_group 1): each of the `rows` rows of `length` keys is cut into `parts`
// runs of part_length keys (the last takes the rest; the host makes none shorter than 2k) and each run is
// a row of its own here, with indices the positions within the whole row. Its k first keys are the
// row's candidates: the row's k first keys are among the parts' (a key beaten by k keys of its run is
// beaten by k of the row), and equal keys of a row keep their position order in the parts' output,
// run after run, so a top-k of the candidates that takes ties by the lower place takes them by
// position (topk_map_positions then turns the places into positions). The parts of a row differ in
// length, so each takes a group of its own (rows_per_group 1: the loops with barriers inside run to
// the part's length).
//
// Segments by offsets (offset_bytes 4 or 8; parts 1, rows_per_group 1): group r takes segment r,
// [offsets[r], offsets[r + 1]), and selects its min(k, length) first keys, indices within the
// segment, at out r x k; the segment's other slots are padded (keys all bits zero, indices all bits
// one). Where sort_offset_bytes is set (a sorted top-k), it also writes the sort's offsets: r x k and
// r x k + min(k, length) for the selected keys and the padding as two segments, and rows x k last.
KERNEL topk_rows(GLOBAL const key_t* keys, GLOBAL key_t* out_keys, GLOBAL u32* indices, u64 rows, u64 length, u64 k,
                 u32 index_bytes, okey_t flip, u32 rows_per_group, u32 local_candidates, u64 parts,
                 u64 part_length, u32 hist_copies, GLOBAL const u32* offsets, u32 offset_bytes,
                 GLOBAL u32* sort_offsets, u32 sort_offset_bytes) {
  LOCAL_ARRAY u32 hist[TK_HIST_COPIES_MAX * TK_HIST_STRIDE];
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u64 state[TK_MAX_ROWS_PER_GROUP * TK_ROW_STATE_WORDS];
  LOCAL_ARRAY u32 flags[2];
  LOCAL_ARRAY key_t cand_keys[TK_LOCAL_CANDIDATES];
  LOCAL_ARRAY u32 cand_pos[TK_LOCAL_CANDIDATES];
  const u32 width = GROUP_SIZE / rows_per_group, sub = LOCAL_ID() / width, lane = LOCAL_ID() & (width - 1);
  const u64 r = GROUP_ID() * rows_per_group + sub;  // the row (or part of a row) and its place in the output
  const u32 cap = local_candidates ? TK_LOCAL_CANDIDATES / rows_per_group : 0u;
  const u64 part = r % parts, lo = part * part_length;
  u64 len = parts == 1 ? length : part + 1 == parts ? length - lo : part_length;
  GLOBAL const key_t* row = keys + (r / parts) * length + lo;
  u64 kr = k;  // the keys this row selects: k, or fewer for a segment shorter than k
  if (offset_bytes != 0u) {
    const u32 wide = offset_bytes == 8u;
    const u64 start = r < rows ? offset_at(offsets, wide, r) : 0u;
    len = r < rows ? offset_at(offsets, wide, r + 1) - start : 0u;
    row = keys + start;
    kr = len < k ? len : k;
  }
  const int valid = r < rows * parts && kr != 0;
  LOCAL u64* my_state = state + sub * TK_ROW_STATE_WORDS;
  LOCAL key_t* my_cand_keys = cand_keys + sub * cap;
  LOCAL u32* my_cand_pos = cand_pos + sub * cap;
  const u32 copies = tk_row_copies(hist_copies, rows_per_group);
  tk_rows_threshold(row, len, kr, flip, 0, valid, rows_per_group, hist + sub * copies * TK_HIST_STRIDE, my_state,
                    state, scratch, flags, cap, my_cand_keys, my_cand_pos, out_keys, indices, index_bytes, r * k, lo,
                    copies);
  const okey_t prefix = (okey_t)my_state[TK_PREFIX], mask = (okey_t)my_state[TK_MASK];
  const u64 remaining = my_state[TK_REMAINING];
  const int in_local = my_state[TK_IN_LOCAL] != 0;
  // rows whose candidates are in local memory, settled after their filter: one pass over them
  const int local_left = valid && in_local && !my_state[TK_FINISHED];
  if (tk_group_any(local_left, lane, flags + 1))
    tk_local_collect(my_cand_keys, my_cand_pos, my_state[TK_LOCAL_COUNT], cap, local_left, flip, prefix, mask,
                     remaining, kr, my_state[TK_LOCAL_WRITTEN], out_keys, indices, index_bytes, r * k, scratch, width);
  // rows never filtered: the collection reads the row (a missing row, past the last, reads no keys)
  const int row_left = valid && !in_local;
  if (tk_group_any(row_left, lane, flags + 1))
    tk_collect(row, 0, len, flip, prefix, mask, row_left ? remaining : 0, row_left ? kr : 0, 0, 0, out_keys,
               indices, index_bytes, r * k, lo, scratch, width);
  if (offset_bytes != 0u && r < rows) {  // a segment's padding, and the sort's offsets
    for (u64 j = kr + LOCAL_ID(); j < k; j += GROUP_SIZE) {
      out_keys[r * k + j] = (key_t)0;
      tk_write_index(indices, index_bytes, r * k + j, ~(u64)0);
    }
    if (sort_offset_bytes != 0u && LOCAL_ID() == 0) {
      tk_write_index(sort_offsets, sort_offset_bytes, 2 * r, r * k);
      tk_write_index(sort_offsets, sort_offset_bytes, 2 * r + 1, r * k + kr);
      if (r + 1 == rows) tk_write_index(sort_offsets, sort_offset_bytes, 2 * rows, rows * k);
    }
  }
}

// After a top-k of parts' candidates (topk_rows with parts > 1, then a top-k of each row's
// candidates with u32 places as indices): each selected key's place among its row's candidates
// (places, rows x k) becomes its position in the row (cand_pos, rows x per_row), written as
// index_bytes-wide indices.
KERNEL topk_map_positions(GLOBAL const u32* places, GLOBAL const u32* cand_pos, GLOBAL u32* indices, u64 rows, u64 k,
                          u64 per_row, u32 index_bytes) {
  const u64 i = GLOBAL_ID();
  if (i >= rows * k) return;
  tk_write_index(indices, index_bytes, i, cand_pos[(i / k) * per_row + places[i]]);
}

// numpy's partition of whole rows in one work-group (as topk_rows): each row's kth + 1 smallest
// selected with an exact threshold, then the row written in three runs (tk_partition_place), to
// out_keys / indices at r * length; kth_only: each row's key of rank kth alone, at r.
KERNEL topk_partition_rows(GLOBAL const key_t* keys, GLOBAL key_t* out_keys, GLOBAL u32* indices, u64 rows,
                           u64 length, u64 kth, u32 write_keys, u32 index_bytes, u32 kth_only, u32 rows_per_group,
                           u32 hist_copies) {
  LOCAL_ARRAY u32 hist[TK_HIST_COPIES_MAX * TK_HIST_STRIDE];
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u64 state[TK_MAX_ROWS_PER_GROUP * TK_ROW_STATE_WORDS];
  LOCAL_ARRAY u32 flags[2];
  LOCAL_ARRAY key_t no_cand_keys[1];  // a partition keeps no local candidates (cap 0)
  LOCAL_ARRAY u32 no_cand_pos[1];
  const u32 width = GROUP_SIZE / rows_per_group, sub = LOCAL_ID() / width;
  const u64 r = GROUP_ID() * rows_per_group + sub;
  const int valid = r < rows;
  GLOBAL const key_t* row = keys + r * length;
  LOCAL u64* my_state = state + sub * TK_ROW_STATE_WORDS;
  const u32 copies = tk_row_copies(hist_copies, rows_per_group);
  tk_rows_threshold(row, length, kth + 1, (okey_t)0, 1, valid, rows_per_group, hist + sub * copies * TK_HIST_STRIDE,
                    my_state, state, scratch, flags, 0, no_cand_keys, no_cand_pos, out_keys, indices, index_bytes, 0,
                    0, copies);
  const okey_t prefix = (okey_t)my_state[TK_PREFIX], mask = (okey_t)my_state[TK_MASK];
  const u64 before = kth + 1 - my_state[TK_REMAINING], tied = my_state[TK_TIED];
  tk_partition_place(row, 0, length, valid, prefix, mask, before, tied, 0, 0, kth_only, kth, out_keys, write_keys,
                     indices, index_bytes, kth_only ? r : r * length, scratch, width);
}

// ---- several work-groups per row: rounds ----
// Each digit pass is a round of three launches, so that nothing comes back to the host:
//  - topk_round_histogram: each of the row's groups counts the digit among its range of the row's
//    source (the row itself, or the candidates the last filter kept), keeps the inclusive prefix of its
//    counts over the digits (group_hist, per group) and adds them into the row's histogram;
//  - topk_round_pick: one work-item per row decides the digit (tk_pick) and whether this round filters:
//    where the row is settled, or the tied bucket holds at most `cap` keys;
//  - topk_round_filter (where it filters): each group writes its range's keys before the threshold
//    to the output (write_selected: a top-k; a partition only narrows) and its tied keys, with their
//    positions, to the other candidate buffer (or, once settled, the first `remaining` ties by
//    position to the output). Each group's place among the row's groups comes from the groups before
//    it (their prefix counts), so the candidates stay in position order.
// Reading the whole row once to count and once to filter, then only the candidates, replaces a read
// of the row per digit pass (and two more to collect) wherever the tied bucket is small; a row whose
// top digit ties many keys (floats clustered in a few exponents) keeps counting on the row itself,
// each group's keys before the threshold added up in `running`, until its bucket is small enough.
// The output of a top-k is therefore the keys before the threshold of each filtering round, each
// round's in position order, then the ties taken: equal keys always fall in one round (ordered keys
// are equal in every digit), so a stable sort of the output still puts equal keys by position.

// state: rows x TK_SPLIT_STATE_WORDS u64; hist: rows x TK_RADIX u32 (zero between rounds); running:
// rows x groups_per_row u64. One work-item per entry of the largest.
KERNEL topk_round_init(GLOBAL u64* state, GLOBAL u32* hist, GLOBAL u64* running, u64 rows, u64 length, u64 k,
                       u32 exact, u32 groups_per_row) {
  const u64 i = GLOBAL_ID();
  if (i < rows) tk_split_start(state + i * TK_SPLIT_STATE_WORDS, 0, length, k, exact);
  if (i < rows * TK_RADIX) hist[i] = 0;
  if (i < rows * groups_per_row) running[i] = 0;
}

KERNEL topk_round_histogram(GLOBAL const key_t* keys, GLOBAL const key_t* cand_keys, GLOBAL const u64* state,
                            GLOBAL u32* hist, GLOBAL u32* group_hist, GLOBAL u64* running, u64 rows, u64 length,
                            u32 groups_per_row, u64 chunk, u64 cap, okey_t flip, u32 pass, u32 hist_copies) {
  LOCAL_ARRAY u32 local_hist[TK_HIST_COPIES_MAX * TK_HIST_STRIDE];
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  GLOBAL const u64* s = state + r * TK_SPLIT_STATE_WORDS;
  if (s[TK_DONE]) return;  // the same word for the whole group
  // the last round's filter ran: its candidates are the source now (topk_round_pick records it next)
  const int filtered = pass > 0 && s[TK_FILTER_ROUND] == pass - 1;
  const u64 source = filtered ? tk_other_source(s[TK_SOURCE]) : s[TK_SOURCE];
  const u64 count = filtered ? s[TK_TIED] : s[TK_COUNT];
  const okey_t prefix = (okey_t)s[TK_PREFIX], mask = (okey_t)s[TK_MASK];
  GLOBAL u32* my_hist = group_hist + (r * groups_per_row + g) * TK_RADIX;
  if (t == 0 && pass > 0) {  // the last round's keys before its digit join the group's running count
    const u32 d = tk_digit(prefix, pass - 1);
    GLOBAL u64* my_running = running + r * groups_per_row + g;
    *my_running = filtered ? 0u : *my_running + (d ? my_hist[d - 1] : 0u);
  }
  const u32 copies = tk_row_copies(hist_copies, 1);
  tk_clear_copies(local_hist, copies, t, GROUP_SIZE);
  GLOBAL_BARRIER();  // work-item 0 has read the last round's line before the group writes this one's
  u64 lo, hi;
  tk_source_range(source, count, g, groups_per_row, chunk, &lo, &hi);
  GLOBAL const key_t* from = source == 0 ? keys + r * length : cand_keys + tk_candidates_base(source, r, rows, cap);
  tk_count_digits(from, lo + t, hi, GROUP_SIZE, flip, prefix, mask, pass, local_hist + (t % copies) * TK_HIST_STRIDE);
  BARRIER();
  tk_fold_copies(local_hist, copies, t, GROUP_SIZE);  // unconditional, as in tk_rows_threshold
  BARRIER();
  // the inclusive prefix over the digits: each work-item a run of bins, a scan over the runs
  const u32 per = GROUP_SIZE >= TK_RADIX ? 1u : TK_RADIX / GROUP_SIZE, first = t * per;
  u32 sum = 0;
  if (first < TK_RADIX)
    for (u32 d = first; d < first + per; ++d) sum += local_hist[d];
  u32 run = tk_sub_scan(sum, scratch, GROUP_SIZE);
  if (first < TK_RADIX)
    for (u32 d = first; d < first + per; ++d) {
      run += local_hist[d];
      my_hist[d] = run;
      if (local_hist[d]) ATOMIC_ADD_U32(&hist[r * TK_RADIX + d], local_hist[d]);
    }
}

// One work-item per row: the round's decision (the last round's filter recorded first), the row's
// histogram cleared for the next round.
KERNEL topk_round_pick(GLOBAL u64* state, GLOBAL u32* hist, u64 rows, u64 k, u64 cap, u32 pass, u32 exact) {
  const u64 r = GLOBAL_ID();
  if (r >= rows) return;
  GLOBAL u64* gs = state + r * TK_SPLIT_STATE_WORDS;
  if (gs[TK_DONE]) return;
  u64 s[TK_STATE_WORDS];
  for (u32 w = 0; w < TK_STATE_WORDS; ++w) s[w] = gs[w];
  if (pass > 0 && gs[TK_FILTER_ROUND] == pass - 1) {
    gs[TK_SOURCE] = tk_other_source(gs[TK_SOURCE]);
    gs[TK_COUNT] = s[TK_TIED];
    gs[TK_WRITTEN] = k - s[TK_REMAINING];
  }
  tk_pick(s, hist + r * TK_RADIX, pass, exact);  // reads the row's counts where they are
  for (u32 d = 0; d < TK_RADIX; ++d) hist[r * TK_RADIX + d] = 0;
  for (u32 w = 0; w < TK_STATE_WORDS; ++w) gs[w] = s[w];
  if (s[TK_DONE] || s[TK_TIED] <= cap) gs[TK_FILTER_ROUND] = pass;
}

KERNEL topk_round_filter(GLOBAL const key_t* keys, GLOBAL key_t* cand_keys, GLOBAL u32* cand_pos,
                         GLOBAL const u64* state, GLOBAL const u32* group_hist, GLOBAL const u64* running,
                         GLOBAL key_t* out_keys, GLOBAL u32* indices, u64 rows, u64 length, u64 k,
                         u32 groups_per_row, u64 chunk, u64 cap, u32 index_bytes, okey_t flip, u32 pass,
                         u32 write_selected) {
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u64 sums[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  GLOBAL const u64* s = state + r * TK_SPLIT_STATE_WORDS;
  if (s[TK_FILTER_ROUND] != pass) return;  // uniform
  const int done = s[TK_DONE] != 0;
  if (done && !write_selected) return;  // a settled partition threshold needs no candidates
  const u64 source = s[TK_SOURCE], count = s[TK_COUNT], remaining = s[TK_REMAINING], written = s[TK_WRITTEN];
  const okey_t prefix = (okey_t)s[TK_PREFIX], mask = (okey_t)s[TK_MASK];
  u64 lo, hi;
  tk_source_range(source, count, g, groups_per_row, chunk, &lo, &hi);
  // the keys before the threshold and the ties in the row's groups before this one
  u64 before_ahead, ties_ahead;
  if (mask == 0) {  // settled before any digit (k >= length): every key tied
    before_ahead = 0;
    ties_ahead = lo;
  } else {
    const u32 d = tk_digit(prefix, pass);
    u64 b = 0, e = 0;
    for (u64 j = t; j < g; j += GROUP_SIZE) {
      GLOBAL const u32* h = group_hist + (r * groups_per_row + j) * TK_RADIX;
      const u64 below = d ? h[d - 1] : 0u;
      b += running[r * groups_per_row + j] + below;
      e += h[d] - below;
    }
    before_ahead = tk_group_sum(b, sums);
    ties_ahead = tk_group_sum(e, sums);
  }
  const u64 from_base = source == 0 ? r * length : tk_candidates_base(source, r, rows, cap);
  GLOBAL const key_t* from = source == 0 ? keys + from_base : cand_keys + from_base;
  const u64 to_base = done ? 0 : tk_candidates_base(tk_other_source(source), r, rows, cap);
  for (u64 start = lo; start < hi; start += (u64)GROUP_SIZE * TK_ITEMS) {
    const u64 first = start + (u64)t * TK_ITEMS;
    key_t v[TK_ITEMS];
    u32 before, tied;
    const u32 counts = tk_classify_items(from, first, hi, 1, flip, prefix, mask, v, &before, &tied);
    u32 total;
    const u32 excl = tk_tile_scan(counts, scratch, GROUP_SIZE, &total);
    u64 b = before_ahead + (excl & 0xFFFFu), e = ties_ahead + (excl >> 16);
    if (before | tied) {
#pragma unroll
      for (u32 j = 0; j < TK_ITEMS; ++j) {
        const u32 is_before = (before >> j) & 1u, is_tied = (tied >> j) & 1u;
        if (is_before | is_tied) {
          const u64 position = source == 0 ? first + j : cand_pos[from_base + first + j];
          if (is_before) {
            if (write_selected) {
              const u64 at = r * k + written + b;
              out_keys[at] = v[j];
              tk_write_index(indices, index_bytes, at, position);
            }
          } else if (done) {
            if (write_selected && e < remaining) {
              const u64 at = r * k + (k - remaining) + e;
              out_keys[at] = v[j];
              tk_write_index(indices, index_bytes, at, position);
            }
          } else {
            cand_keys[to_base + e] = v[j];
            cand_pos[to_base + e] = (u32)position;
          }
        }
        b += is_before;
        e += is_tied;
      }
    }
    before_ahead += total & 0xFFFFu;
    ties_ahead += total >> 16;
  }
}

// ---- several work-groups per row: partition's counts ----
// counts: per (row, group) the keys before the threshold and the ties in the group's range of the row.

KERNEL topk_count(GLOBAL const key_t* keys, GLOBAL const u64* state, GLOBAL u32* counts, u64 length,
                  u32 groups_per_row, u64 chunk, okey_t flip) {
  LOCAL_ARRAY u32 totals[2];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  GLOBAL const u64* s = state + r * TK_SPLIT_STATE_WORDS;
  const okey_t prefix = (okey_t)s[TK_PREFIX], mask = (okey_t)s[TK_MASK];
  if (t < 2) totals[t] = 0;
  BARRIER();
  GLOBAL const key_t* row = keys + r * length;
  const u64 hi = tk_range_end(g, chunk, length);
  u32 before = 0, ties = 0;
  for (u64 i = g * chunk + t; i < hi; i += GROUP_SIZE) {
    const okey_t o = ordered_key(row[i], flip) & mask;
    before += o < prefix ? 1u : 0u;
    ties += o == prefix ? 1u : 0u;
  }
  if (before) ATOMIC_ADD_U32(&totals[0], before);
  if (ties) ATOMIC_ADD_U32(&totals[1], ties);
  BARRIER();
  if (t < 2) counts[GROUP_ID() * 2 + t] = totals[t];
}

// numpy's partition of rows cut among groups (after the rounds with `exact`, and topk_count): each group writes its range's keys to their places (tk_partition_place).
KERNEL topk_partition_scatter(GLOBAL const key_t* keys, GLOBAL const u64* state, GLOBAL const u32* counts,
                              GLOBAL key_t* out_keys, GLOBAL u32* indices, u64 length, u64 kth, u32 groups_per_row,
                              u64 chunk, u32 write_keys, u32 index_bytes, u32 kth_only) {
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u64 sums[GROUP_SIZE];
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  GLOBAL const u64* s = state + r * TK_SPLIT_STATE_WORDS;
  const okey_t prefix = (okey_t)s[TK_PREFIX], mask = (okey_t)s[TK_MASK];
  const u64 before = kth + 1 - s[TK_REMAINING], tied = s[TK_TIED];
  u64 before_ahead, ties_ahead;
  tk_counts_ahead(counts, r, g, groups_per_row, sums, &before_ahead, &ties_ahead);
  if (kth_only && before + ties_ahead > kth) return;  // the key of place kth lies in earlier ranges (uniform)
  tk_partition_place(keys + r * length, g * chunk, tk_range_end(g, chunk, length), 1, prefix, mask, before, tied,
                     before_ahead, ties_ahead, kth_only, kth, out_keys, write_keys, indices, index_bytes,
                     kth_only ? r : r * length, scratch, GROUP_SIZE);
}
