// A work-group's (or sub-group's) passes over a range of a row against a threshold (topk_select.cl):
// the sub-group scans, the classification of a work-item's keys, the digit counts (with counting
// copies), the collection of the selected keys, partition's placement, and the group's sums.
// Needs GROUP_SIZE, and TK_WARP_SCAN=1 on NVIDIA GPUs (the scans in warp shuffles).
#ifndef GPUSORT_TOPK_GROUP_H
#define GPUSORT_TOPK_GROUP_H
#include "topk_common.h"
#if TK_WARP_SCAN
#include "nvidia_ops.h"
#endif

// Exclusive prefix sum of v over the `width` work-items of one sub-group (the work-items
// [base, base + width) of the group; width a power of two, at least 32 with TK_WARP_SCAN). Every
// work-item of the group calls it (the barriers are the group's). scratch[base + width - 1] holds
// the sub-group's total until the caller's next barrier.
#if TK_WARP_SCAN
// NVIDIA GPUs (the host defines TK_WARP_SCAN there): each warp scans in shuffles, the warps' totals
// meet in scratch: two barriers where the steps through local memory take two per doubling.
DEVICE_FN u32 tk_sub_scan(u32 v, LOCAL u32* scratch, u32 width) {
  const u32 t = LOCAL_ID(), lane = t & 31u, last = t | (width - 1);
  const u32 inclusive = warp_inclusive_sum_u32(v, lane);
  if (lane == 31u) scratch[t] = inclusive;  // the warp's total
  BARRIER();
  u32 ahead = 0;  // the totals of the sub-group's warps before this one
  for (u32 w = t & ~(width - 1); w + 31u < t; w += 32u) ahead += scratch[w + 31u];
  // the sub-group's last warp's slot is read by no one: it takes the sub-group's total
  if (t == last) scratch[t] = ahead + inclusive;
  BARRIER();
  return ahead + inclusive - v;
}
#else
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
#endif

// Keys each work-item takes per tile of a pass over a row. Reading one key per work-item and
// iteration kept too few bytes in flight to fill the memory bus (H100, 2026-12-07: a count pass over
// 2^28 f32 keys at a quarter of the copy rate), and a group scan per key tile cost more than the
// reads; TK_ITEMS independent loads per work-item, and one scan per TK_ITEMS keys, fix both.
#define TK_ITEMS 8

// A work-item's TK_ITEMS consecutive keys of a blocked tile (positions first .. first + TK_ITEMS - 1,
// those below `hi`), classified against the threshold: bit j of *before / *tied for key j. Returns
// the packed counts (before in the low, tied in the high 16 bits), as tk_sub_scan takes them.
DEVICE_FN u32 tk_classify_items(GLOBAL const key_t* from, u64 first, u64 hi, int mine, okey_t flip, okey_t prefix,
                                okey_t mask, key_t* v, u32* before, u32* tied) {
  u32 b = 0, e = 0, counts = 0;
#pragma unroll
  for (u32 j = 0; j < TK_ITEMS; ++j) v[j] = mine && first + j < hi ? from[first + j] : (key_t)0;
#pragma unroll
  for (u32 j = 0; j < TK_ITEMS; ++j) {
    const okey_t o = ordered_key(v[j], flip) & mask;
    const int in = mine && first + j < hi;
    const u32 is_before = in && o < prefix ? 1u : 0u, is_tied = in && o == prefix ? 1u : 0u;
    b |= is_before << j;
    e |= is_tied << j;
    counts += is_before | is_tied << 16;
  }
  *before = b;
  *tied = e;
  return counts;
}

// The group scan of a tile's packed counts (tk_classify_items'): returns the work-item's exclusive
// prefix and sets *total to its sub-group's sum. Every work-item of the group calls it.
DEVICE_FN u32 tk_tile_scan(u32 counts, LOCAL u32* scratch, u32 width, u32* total) {
  const u32 excl = tk_sub_scan(counts, scratch, width);
  *total = scratch[LOCAL_ID() | (width - 1)];
  BARRIER();  // every work-item has read the total before the next tile's scan writes over it
  return excl;
}

// Counts digit `pass` of the keys at from[base], from[base + stride], ... below hi that match the
// threshold (prefix, mask) into hist, TK_ITEMS independent loads at a time (bytes in flight).
DEVICE_FN void tk_count_digits(GLOBAL const key_t* from, u64 base, u64 hi, u64 stride, okey_t flip, okey_t prefix,
                               okey_t mask, u32 pass, LOCAL u32* hist) {
  for (; base < hi; base += stride * TK_ITEMS) {
    key_t v[TK_ITEMS];
#pragma unroll
    for (u32 j = 0; j < TK_ITEMS; ++j) v[j] = base + j * stride < hi ? from[base + j * stride] : (key_t)0;
#pragma unroll
    for (u32 j = 0; j < TK_ITEMS; ++j) {
      const okey_t o = ordered_key(v[j], flip);
      if (base + j * stride < hi && (o & mask) == prefix) ATOMIC_ADD_U32(&hist[tk_digit(o, pass)], 1u);
    }
  }
}

// Counting copies: clustered keys (normal floats share a few top digits) send most of a warp's
// atomics to a few bins, which the hardware takes one after another. Work-items count into
// `copies` histograms instead (the work-item's copy: lane % copies), each TK_HIST_STRIDE words apart
// so that one bin's copies sit in different banks, and the copies are folded into the first before
// the digit is picked. TK_HIST_COPIES_MAX copies fit the arrays below.
#define TK_HIST_STRIDE (TK_RADIX + 1u)
#define TK_HIST_COPIES_MAX 8u

// Zeroes `copies` histogram copies (the work-items [lane] of a sub-group of `width`).
DEVICE_FN void tk_clear_copies(LOCAL u32* hist, u32 copies, u32 lane, u32 width) {
  for (u32 d = lane; d < copies * TK_HIST_STRIDE; d += width) hist[d] = 0;
}

// Adds copies 1 .. copies - 1 into the first (between the group's barriers after the counts and
// before the first reads of the sums).
DEVICE_FN void tk_fold_copies(LOCAL u32* hist, u32 copies, u32 lane, u32 width) {
  for (u32 d = lane; d < TK_RADIX; d += width) {
    u32 sum = hist[d];
    for (u32 c = 1; c < copies; ++c) sum += hist[c * TK_HIST_STRIDE + d];
    hist[d] = sum;
  }
}

// Collects the selected keys of positions [lo, hi) of a row whose keys start at `row`, given the
// selected keys before lo (taken_before: those before the threshold; ties_before: ties, taken or not).
// Writes each at out_keys/indices[out + place]. The row belongs to a sub-group of `width` work-items
// (the whole group: width GROUP_SIZE); every work-item of the group calls it with the same hi - lo.
// A sub-group whose k are placed reads no more keys; the loop itself ends early only where the
// sub-group is the whole group (its barriers are the group's).
DEVICE_FN void tk_collect(GLOBAL const key_t* row, u64 lo, u64 hi, okey_t flip, okey_t prefix, okey_t mask,
                          u64 remaining, u64 k, u64 taken_before, u64 ties_before, GLOBAL key_t* out_keys,
                          GLOBAL u32* indices, u32 index_bytes, u64 out, u64 pos_base, LOCAL u32* scratch,
                          u32 width) {
  const u32 lane = LOCAL_ID() & (width - 1);
  for (u64 start = lo; start < hi; start += (u64)width * TK_ITEMS) {
    // the rest is out once k keys are placed (the same values in every work-item of the sub-group)
    const int placed = taken_before + (ties_before < remaining ? ties_before : remaining) >= k;
    if (placed && width == GROUP_SIZE) break;
    const u64 first = start + (u64)lane * TK_ITEMS;
    key_t v[TK_ITEMS];
    u32 before, tied;
    const u32 counts = tk_classify_items(row, first, hi, !placed, flip, prefix, mask, v, &before, &tied);
    u32 total;
    const u32 excl = tk_tile_scan(counts, scratch, width, &total);
    u64 b = taken_before + (excl & 0xFFFFu), e = ties_before + (excl >> 16);
    if (before | tied) {
#pragma unroll
      for (u32 j = 0; j < TK_ITEMS; ++j) {
        const u32 is_before = (before >> j) & 1u, is_tied = (tied >> j) & 1u;
        if (is_before || (is_tied && e < remaining)) {
          const u64 place = is_before ? b + (e < remaining ? e : remaining) : b + e;
          out_keys[out + place] = v[j];
          tk_write_index(indices, index_bytes, out + place, pos_base + first + j);
        }
        b += is_before;
        e += is_tied;
      }
    }
    taken_before += total & 0xFFFFu;
    ties_before += total >> 16;
  }
}

// Whether `mine` holds for any sub-group of the group (lane 0's value of each; every work-item calls
// it; flag: one local word).
DEVICE_FN int tk_group_any(int mine, u32 lane, LOCAL u32* flag) {
  if (LOCAL_ID() == 0) flag[0] = 0;
  BARRIER();
  if (mine && lane == 0) flag[0] = 1;
  BARRIER();
  const int any = flag[0] != 0;
  BARRIER();  // read by every work-item before the next call clears it
  return any;
}

// Writes the keys of positions [lo, hi) of a row whose keys start at `row` to their places in the
// row's partition around an exact threshold (ascending): the `before` keys before it first, then the
// `tied` keys, then the rest, each run in position order (before_ahead, ties_ahead: the row's keys
// before the threshold and tied at positions before lo). Each key goes to out_keys (where write_keys)
// and its position to indices at out + place; kth_only (select_kth): only the key at place `kth`, at
// out. The row belongs to a sub-group of `width` work-items (the whole group: width GROUP_SIZE);
// every work-item of the group calls it with the same hi - lo; `valid` 0: no row, nothing read.
DEVICE_FN void tk_partition_place(GLOBAL const key_t* row, u64 lo, u64 hi, int valid, okey_t prefix, okey_t mask,
                                  u64 before, u64 tied, u64 before_ahead, u64 ties_ahead, u32 kth_only, u64 kth,
                                  GLOBAL key_t* out_keys, u32 write_keys, GLOBAL u32* indices, u32 index_bytes, u64 out,
                                  LOCAL u32* scratch, u32 width) {
  const u32 t = LOCAL_ID(), lane = t & (width - 1), last = (t | (width - 1));
  for (u64 start = lo; start < hi; start += width) {
    // select_kth: the rest is out once the key of place kth is behind (the same in the sub-group)
    const int placed = kth_only && before + ties_ahead > kth;
    if (placed && width == GROUP_SIZE) break;
    const u64 i = start + lane;
    const int mine = valid && !placed && i < hi;
    u32 flags = 0;
    key_t key = 0;
    if (mine) {
      key = row[i];
      const okey_t o = ordered_key(key, (okey_t)0) & mask;
      flags = (o < prefix ? 1u : 0u) | (o == prefix ? 0x10000u : 0u);
    }
    const u32 excl = tk_sub_scan(flags, scratch, width);
    const u32 total = scratch[last];
    BARRIER();  // every work-item has read the total before the next tile's scan writes over it
    if (mine) {
      const u64 b = before_ahead + (excl & 0xFFFFu), e = ties_ahead + (excl >> 16);
      // the keys after the threshold ahead of position i are those neither before it nor tied
      const u64 place = (flags & 1u) ? b : (flags >> 16) ? before + e : before + tied + (i - b - e);
      if (!kth_only || place == kth) {
        const u64 at = kth_only ? out : out + place;
        if (write_keys) out_keys[at] = key;
        tk_write_index(indices, index_bytes, at, i);
      }
    }
    before_ahead += total & 0xFFFFu;
    ties_ahead += total >> 16;
  }
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

#endif  // GPUSORT_TOPK_GROUP_H
