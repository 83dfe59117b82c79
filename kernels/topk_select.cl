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
//  - long rows: `groups_per_row` work-groups per row, the state per row in global memory, a launch
//    per step (topk_init, then topk_histogram + topk_pick per digit, topk_count, topk_scatter), so
//    nothing comes back to the host between passes.
// Indices (index_bytes 4 or 8; 0: none written) are positions within the row.
//
// Specialised by keys.h's defines (VALUE_BYTES 0) and GROUP_SIZE (a power of two, 64..1024).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256
#include "keys.h"

#define TK_RADIX 256u
#define TK_PASSES (KEY_BITS / 8)

// The per-row state words (global for the long-row form): threshold prefix, its mask, the ties
// still to take, and whether the threshold is final.
#define TK_PREFIX 0
#define TK_MASK 1
#define TK_REMAINING 2
#define TK_DONE 3
#define TK_STATE_WORDS 4

DEVICE_FN u32 tk_digit(okey_t o, u32 pass) { return (u32)(o >> (KEY_BITS - 8 * (pass + 1))) & 0xFFu; }

// The start of a row's state: nothing decided; a row of at most k keys takes all of them.
DEVICE_FN void tk_start(u64* s, u64 length, u64 k) {
  s[TK_PREFIX] = 0;
  s[TK_MASK] = 0;
  s[TK_REMAINING] = k;
  s[TK_DONE] = k >= length ? 1u : 0u;
}

// One pass's decision from its histogram: the bucket d with before < remaining <= before + count[d].
// Called by one work-item; `s` is the row's state (private copy).
DEVICE_FN void tk_pick(u64* s, const u32 count_of_digit[TK_RADIX], u32 pass) {
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
  // the bucket holds exactly the keys still missing: every one of them is in, whatever its lower digits
  if ((u64)count_of_digit[d] == s[TK_REMAINING] || shift == 0) s[TK_DONE] = 1;
}

DEVICE_FN void tk_write_index(GLOBAL u32* indices, u32 index_bytes, u64 at, u64 position) {
  if (index_bytes == 8)
    ((GLOBAL u64*)indices)[at] = position;
  else if (index_bytes == 4)
    indices[at] = (u32)position;
}

// Exclusive prefix sum of v over the `width` work-items of one sub-group (the work-items
// [base, base + width) of the group; width a power of two), Hillis-Steele through scratch. Every
// work-item of the group calls it (the barriers are the group's). scratch[base + width - 1] holds
// the sub-group's total until the caller's next barrier.
DEVICE_FN u32 tk_sub_scan(u32 v, LOCAL u32* scratch, u32 width) {
  const u32 t = LOCAL_ID(), lane = t & (width - 1);
  scratch[t] = v;
  BARRIER();
  for (u32 off = 1; off < width; off <<= 1) {
    const u32 add = lane >= off ? scratch[t - off] : 0u;
    BARRIER();
    scratch[t] += add;
    BARRIER();
  }
  return scratch[t] - v;
}

// Collects the selected keys of positions [lo, hi) of a row whose keys start at `row`, given the
// selected keys before lo (taken_before: those before the threshold; ties_before: ties, taken or not).
// Writes each at out_keys/indices[out + place]. The row belongs to a sub-group of `width` work-items
// (the whole group: width GROUP_SIZE); every work-item of the group calls it with the same hi - lo.
// A sub-group whose k are placed reads no more keys; the loop itself ends early only where the
// sub-group is the whole group (its barriers are the group's).
DEVICE_FN void tk_collect(GLOBAL const key_t* row, u64 lo, u64 hi, okey_t flip, okey_t prefix, okey_t mask,
                          u64 remaining, u64 k, u64 taken_before, u64 ties_before, GLOBAL key_t* out_keys,
                          GLOBAL u32* indices, u32 index_bytes, u64 out, LOCAL u32* scratch, u32 width) {
  const u32 t = LOCAL_ID(), lane = t & (width - 1), last = (t | (width - 1));
  for (u64 start = lo; start < hi; start += width) {
    // the rest is out once k keys are placed (the same values in every work-item of the sub-group)
    const int placed = taken_before + (ties_before < remaining ? ties_before : remaining) >= k;
    if (placed && width == GROUP_SIZE) break;
    const u64 i = start + lane;
    u32 flags = 0;
    key_t key = 0;
    if (i < hi && !placed) {
      key = row[i];
      const okey_t o = ordered_key(key, flip) & mask;
      flags = (o < prefix ? 1u : 0u) | (o == prefix ? 0x10000u : 0u);
    }
    const u32 excl = tk_sub_scan(flags, scratch, width);
    const u32 total = scratch[last];
    BARRIER();  // every work-item has read the total before the next tile's scan writes over it
    const u64 tie_rank = ties_before + (excl >> 16);
    if ((flags & 1u) || ((flags >> 16) && tie_rank < remaining)) {
      const u64 place = taken_before + (excl & 0xFFFFu) + (tie_rank < remaining ? tie_rank : remaining);
      out_keys[out + place] = key;
      tk_write_index(indices, index_bytes, out + place, i);
    }
    taken_before += total & 0xFFFFu;
    ties_before += total >> 16;
  }
}

// ---- whole rows in one work-group: one row, or rows_per_group short rows ----
// Each row has a sub-group of GROUP_SIZE / rows_per_group work-items (a power of two, at least 32),
// its own histogram and state. The group runs the passes until every one of its rows is settled.

#define TK_MAX_ROWS_PER_GROUP 8

KERNEL topk_rows(GLOBAL const key_t* keys, GLOBAL key_t* out_keys, GLOBAL u32* indices, u64 rows, u64 length, u64 k,
                 u32 index_bytes, okey_t flip, u32 rows_per_group) {
  LOCAL_ARRAY u32 hist[TK_MAX_ROWS_PER_GROUP * TK_RADIX];
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u64 state[TK_MAX_ROWS_PER_GROUP * TK_STATE_WORDS];
  LOCAL_ARRAY u32 unsettled;
  const u32 t = LOCAL_ID(), width = GROUP_SIZE / rows_per_group, sub = t / width, lane = t & (width - 1);
  const u64 r = GROUP_ID() * rows_per_group + sub;
  const int valid = r < rows;
  GLOBAL const key_t* row = keys + r * length;
  LOCAL u32* my_hist = hist + sub * TK_RADIX;
  LOCAL u64* my_state = state + sub * TK_STATE_WORDS;
  if (lane == 0) {
    u64 s[TK_STATE_WORDS];
    tk_start(s, length, k);
    if (!valid) s[TK_DONE] = 1;
    for (u32 w = 0; w < TK_STATE_WORDS; ++w) my_state[w] = s[w];
  }
  BARRIER();
  for (u32 pass = 0; pass < TK_PASSES; ++pass) {
    if (t == 0) {
      u32 any = 0;
      for (u32 j = 0; j < rows_per_group; ++j) any |= state[j * TK_STATE_WORDS + TK_DONE] ? 0u : 1u;
      unsettled = any;
    }
    BARRIER();
    if (!unsettled) break;  // uniform: read by every work-item after the barrier that wrote it
    const int done = my_state[TK_DONE] != 0;
    const okey_t prefix = (okey_t)my_state[TK_PREFIX], mask = (okey_t)my_state[TK_MASK];
    for (u32 d = lane; d < TK_RADIX; d += width) my_hist[d] = 0;
    BARRIER();
    if (!done)
      for (u64 i = lane; i < length; i += width) {
        const okey_t o = ordered_key(row[i], flip);
        if ((o & mask) == prefix) ATOMIC_ADD_U32(&my_hist[tk_digit(o, pass)], 1u);
      }
    BARRIER();
    // The decision in parallel: each lane sums a run of bins, a scan over the lanes finds the lane
    // whose run holds the k-th key, and that lane walks its run (tk_pick's rule, as topk_pick has it).
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
      if ((u64)my_hist[d] == wanted - before || shift == 0) my_state[TK_DONE] = 1;
    }
    BARRIER();
  }
  const okey_t prefix = (okey_t)my_state[TK_PREFIX], mask = (okey_t)my_state[TK_MASK];
  // a missing row (past the last) selects nothing: it reads no keys
  const u64 remaining = valid ? my_state[TK_REMAINING] : 0, want = valid ? k : 0;
  tk_collect(row, 0, length, flip, prefix, mask, remaining, want, 0, 0, out_keys, indices, index_bytes, r * k, scratch,
             width);
}

// ---- several work-groups per row ----
// state: rows x TK_STATE_WORDS u64; hist: rows x TK_RADIX u32 (zero between passes); counts: per
// (row, group) the keys before the threshold and the ties in the group's range.

KERNEL topk_init(GLOBAL u64* state, GLOBAL u32* hist, u64 rows, u64 length, u64 k) {
  const u64 i = GLOBAL_ID();
  if (i < rows) {
    u64 s[TK_STATE_WORDS];
    tk_start(s, length, k);
    for (u32 w = 0; w < TK_STATE_WORDS; ++w) state[i * TK_STATE_WORDS + w] = s[w];
  }
  if (i < rows * TK_RADIX) hist[i] = 0;
}

// The keys of a group's range [g * chunk, (g + 1) * chunk) of its row.
DEVICE_FN u64 tk_range_end(u64 g, u64 chunk, u64 length) { return (g + 1) * chunk < length ? (g + 1) * chunk : length; }

KERNEL topk_histogram(GLOBAL const key_t* keys, GLOBAL const u64* state, GLOBAL u32* hist, u64 length,
                      u32 groups_per_row, u64 chunk, okey_t flip, u32 pass) {
  LOCAL_ARRAY u32 local_hist[TK_RADIX];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  GLOBAL const u64* s = state + r * TK_STATE_WORDS;
  if (s[TK_DONE]) return;  // the same word for the whole group
  const okey_t prefix = (okey_t)s[TK_PREFIX], mask = (okey_t)s[TK_MASK];
  for (u32 d = t; d < TK_RADIX; d += GROUP_SIZE) local_hist[d] = 0;
  BARRIER();
  GLOBAL const key_t* row = keys + r * length;
  const u64 hi = tk_range_end(g, chunk, length);
  for (u64 i = g * chunk + t; i < hi; i += GROUP_SIZE) {
    const okey_t o = ordered_key(row[i], flip);
    if ((o & mask) == prefix) ATOMIC_ADD_U32(&local_hist[tk_digit(o, pass)], 1u);
  }
  BARRIER();
  for (u32 d = t; d < TK_RADIX; d += GROUP_SIZE)
    if (local_hist[d]) ATOMIC_ADD_U32(&hist[r * TK_RADIX + d], local_hist[d]);
}

// One work-item per row: the pass's decision, and the row's histogram cleared for the next pass.
KERNEL topk_pick(GLOBAL u64* state, GLOBAL u32* hist, u64 rows, u32 pass) {
  const u64 r = GLOBAL_ID();
  if (r >= rows) return;
  GLOBAL u64* gs = state + r * TK_STATE_WORDS;
  if (gs[TK_DONE]) return;
  u64 s[TK_STATE_WORDS];
  u32 c[TK_RADIX];
  for (u32 w = 0; w < TK_STATE_WORDS; ++w) s[w] = gs[w];
  for (u32 d = 0; d < TK_RADIX; ++d) {
    c[d] = hist[r * TK_RADIX + d];
    hist[r * TK_RADIX + d] = 0;
  }
  tk_pick(s, c, pass);
  for (u32 w = 0; w < TK_STATE_WORDS; ++w) gs[w] = s[w];
}

KERNEL topk_count(GLOBAL const key_t* keys, GLOBAL const u64* state, GLOBAL u32* counts, u64 length,
                  u32 groups_per_row, u64 chunk, okey_t flip) {
  LOCAL_ARRAY u32 totals[2];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  GLOBAL const u64* s = state + r * TK_STATE_WORDS;
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

// The sum over work-items of v (u64), through `sums` (GROUP_SIZE words); every work-item gets it.
DEVICE_FN u64 tk_group_sum(u64 v, LOCAL u64* sums) {
  const u32 t = LOCAL_ID();
  sums[t] = v;
  BARRIER();
  for (u32 step = GROUP_SIZE / 2; step > 0; step >>= 1) {
    if (t < step) sums[t] += sums[t + step];
    BARRIER();
  }
  const u64 total = sums[0];
  BARRIER();
  return total;
}

KERNEL topk_scatter(GLOBAL const key_t* keys, GLOBAL const u64* state, GLOBAL const u32* counts,
                    GLOBAL key_t* out_keys, GLOBAL u32* indices, u64 length, u64 k, u32 groups_per_row, u64 chunk,
                    u32 index_bytes, okey_t flip) {
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  LOCAL_ARRAY u64 sums[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  const u64 r = GROUP_ID() / groups_per_row, g = GROUP_ID() % groups_per_row;
  GLOBAL const u64* s = state + r * TK_STATE_WORDS;
  const okey_t prefix = (okey_t)s[TK_PREFIX], mask = (okey_t)s[TK_MASK];
  const u64 remaining = s[TK_REMAINING];
  // the row's earlier groups' keys before the threshold and ties
  u64 before = 0, ties = 0;
  GLOBAL const u32* row_counts = counts + r * groups_per_row * 2;
  for (u64 e = t; e < g; e += GROUP_SIZE) {
    before += row_counts[e * 2];
    ties += row_counts[e * 2 + 1];
  }
  before = tk_group_sum(before, sums);
  ties = tk_group_sum(ties, sums);
  const u64 taken = before + (ties < remaining ? ties : remaining);
  if (taken >= k) return;  // every selected key lies in earlier ranges (uniform)
  tk_collect(keys + r * length, g * chunk, tk_range_end(g, chunk, length), flip, prefix, mask, remaining, k, before,
             ties, out_keys, indices, index_bytes, r * k, scratch, GROUP_SIZE);
}
