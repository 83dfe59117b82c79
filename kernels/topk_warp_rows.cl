// Top-k of short rows on NVIDIA GPUs (CUDA or NVIDIA's OpenCL): a warp per row, the row's keys in
// registers, and nothing but warp votes, shuffles and the warp's own histogram between the lanes, so
// that no pass waits on a group barrier. The selection is topk_select.cl's (the k first keys in the
// order of ordered_key(k, flip), ties taken by the lower position), in the same output order: the
// selected keys in position order.
//
// The row's ordered keys are held striped (key i in lane i % 32, item i / 32), so that each item's
// load is one coalesced run and position order is item order, then lane order; the selected keys
// themselves are read again from the row (from the cache) when they are written. Positions past the
// row's end hold all ones: they order after every key of the row (the greatest ordered key, ties by
// the higher position), so with k below the length none is ever selected and no pass tests them.
// Each 8-bit digit pass counts the digit of the keys that still match the threshold into the warp's
// 256-bin histogram in local memory; each lane sums 8 bins, a scan over the lanes finds the lane
// whose bins hold the k-th key, and that lane walks them. The passes stop once the bucket holds
// exactly the keys still missing. The collection needs no scan: for each item, a ballot of the keys before the threshold and one of
// the tied keys give every lane its rank among the selected keys ahead of it.
//
// Sorted (sorted != 0, k at most TKW_SORT_MAX): the collection puts the selected keys in the warp's
// local memory instead, and each is then written at its rank among them by (ordered key, position),
// counted against all k: the order of a stable sort of the selection, with no sort launch after.
//
// Specialised by keys.h's defines (VALUE_BYTES 0), GROUP_SIZE (a multiple of 32: GROUP_SIZE / 32 rows
// a group) and TKW_ITEMS (keys per lane: rows of at most 32 x TKW_ITEMS keys).
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 TKW_ITEMS=32
#include "nvidia_ops.h"
#include "topk_common.h"

#define TKW_WARPS (GROUP_SIZE / 32)
#define TKW_BINS_PER_LANE (TK_RADIX / 32u)
#define TKW_SORT_MAX 128u
#define TKW_SORT_ITEMS (TKW_SORT_MAX / 32u)

// The lowest set bit's index of a non-zero x.
DEVICE_FN u32 tkw_lowest_lane(u32 x) { return 31u - warp_clz(x & (0u - x)); }

// The selected keys of a warp (their ordered keys sel_keys and positions sel_pos, k of them, k at most
// TKW_SORT_MAX) written at their ranks by (ordered key, position) to out_keys / indices at out, each
// key read again from the row.
DEVICE_FN void tkw_write_sorted(LOCAL const okey_t* sel_keys, LOCAL const u32* sel_pos, u32 k, u32 lane,
                                GLOBAL const key_t* row, GLOBAL key_t* out_keys, GLOBAL u32* indices, u32 index_bytes,
                                u64 out) {
  okey_t o[TKW_SORT_ITEMS];
  u32 pos[TKW_SORT_ITEMS], rank[TKW_SORT_ITEMS];
#pragma unroll
  for (u32 j = 0; j < TKW_SORT_ITEMS; ++j) {
    const u32 at = j * 32u + lane;
    o[j] = at < k ? sel_keys[at] : (okey_t)0;
    pos[j] = at < k ? sel_pos[at] : 0u;
    rank[j] = 0;
  }
  for (u32 i = 0; i < k; ++i) {  // the same address in every lane: one broadcast read
    const okey_t oi = sel_keys[i];
    const u32 pi = sel_pos[i];
#pragma unroll
    for (u32 j = 0; j < TKW_SORT_ITEMS; ++j) rank[j] += oi < o[j] || (oi == o[j] && pi < pos[j]) ? 1u : 0u;
  }
#pragma unroll
  for (u32 j = 0; j < TKW_SORT_ITEMS; ++j) {
    if (j * 32u + lane < k) {
      out_keys[out + rank[j]] = row[pos[j]];
      tk_write_index(indices, index_bytes, out + rank[j], pos[j]);
    }
  }
}

// Row r (rows x length, length at most 32 x TKW_ITEMS, k at most length) to out_keys / indices at
// r x k; index_bytes 4 or 8 (0: none written), indices the positions within the row. sorted: the k in
// order (k at most TKW_SORT_MAX), else in position order.
KERNEL topk_warp_rows(GLOBAL const key_t* keys, GLOBAL key_t* out_keys, GLOBAL u32* indices, u64 rows, u64 length,
                      u64 k, u32 index_bytes, okey_t flip, u32 sorted) {
  LOCAL_ARRAY u32 hist_of_warp[TKW_WARPS * TK_RADIX];
  LOCAL_ARRAY okey_t sel_keys_of_warp[TKW_WARPS * TKW_SORT_MAX];
  LOCAL_ARRAY u32 sel_pos_of_warp[TKW_WARPS * TKW_SORT_MAX];
  const u32 lane = LOCAL_ID() & 31u, warp = LOCAL_ID() >> 5;
  const u64 r = GROUP_ID() * TKW_WARPS + warp;
  if (r >= rows) return;  // the whole warp: nothing below waits on the group
  LOCAL u32* hist = hist_of_warp + warp * TK_RADIX;
  LOCAL okey_t* sel_keys = sel_keys_of_warp + warp * TKW_SORT_MAX;
  LOCAL u32* sel_pos = sel_pos_of_warp + warp * TKW_SORT_MAX;
  GLOBAL const key_t* row = keys + r * length;
  const u32 len = (u32)length;
  okey_t o[TKW_ITEMS];
#pragma unroll
  for (u32 i = 0; i < TKW_ITEMS; ++i)
    o[i] = i * 32u + lane < len ? ordered_key(row[i * 32u + lane], flip) : (okey_t)KEY_ALL_ONES;

  // the threshold: a key is before it where (o & mask) < prefix, tied where equal; `remaining` ties in
  okey_t prefix = 0, mask = 0;
  u32 remaining = k < length ? (u32)k : len;
  if (k < length) {
    for (u32 pass = 0; pass < TK_PASSES; ++pass) {
      for (u32 b = lane; b < TK_RADIX; b += 32u) hist[b] = 0;
      warp_sync();
#pragma unroll
      for (u32 i = 0; i < TKW_ITEMS; ++i)
        if ((o[i] & mask) == prefix) ATOMIC_ADD_U32(&hist[tk_digit(o[i], pass)], 1u);
      warp_sync();
      u32 c[TKW_BINS_PER_LANE], sum = 0;
#pragma unroll
      for (u32 j = 0; j < TKW_BINS_PER_LANE; ++j) {
        c[j] = hist[lane * TKW_BINS_PER_LANE + j];
        sum += c[j];
      }
      const u32 inclusive = warp_inclusive_sum_u32(sum, lane), exclusive = inclusive - sum;
      const u32 holder = tkw_lowest_lane(warp_ballot(exclusive < remaining && remaining <= inclusive));
      u32 digit = 0, before = exclusive, tied = 0;
      int found = 0;
#pragma unroll
      for (u32 j = 0; j < TKW_BINS_PER_LANE; ++j) {
        if (found) continue;
        if (before + c[j] >= remaining) {
          found = 1;
          digit = lane * TKW_BINS_PER_LANE + j;
          tied = c[j];
        } else {
          before += c[j];
        }
      }
      digit = warp_shuffle(digit, holder);
      before = warp_shuffle(before, holder);
      tied = warp_shuffle(tied, holder);
      const u32 shift = KEY_BITS - 8u * (pass + 1u);
      prefix |= (okey_t)digit << shift;
      mask |= (okey_t)0xFFu << shift;
      remaining -= before;
      if (tied == remaining) break;  // every key of the bucket is in, whatever its lower digits
      warp_sync();                   // every lane has read its bins before the next pass clears them
    }
  }

  // the collection, in position order: item by item, each lane's place from the two ballots
  const u32 below = (1u << lane) - 1u;
  const u64 out = r * k;
  u32 before_ahead = 0, ties_ahead = 0;
#pragma unroll
  for (u32 i = 0; i < TKW_ITEMS; ++i) {
    if (before_ahead + (ties_ahead < remaining ? ties_ahead : remaining) >= k) break;  // the same in every lane
    const u32 p = i * 32u + lane;
    const okey_t m = o[i] & mask;
    const int is_before = m < prefix, is_tied = m == prefix;
    const u32 before_bits = warp_ballot(is_before), tied_bits = warp_ballot(is_tied);
    const u32 b = before_ahead + warp_popcount(before_bits & below), e = ties_ahead + warp_popcount(tied_bits & below);
    if (is_before || (is_tied && e < remaining)) {
      const u32 place = is_before ? b + (e < remaining ? e : remaining) : b + e;
      if (sorted) {
        sel_keys[place] = o[i];
        sel_pos[place] = p;
      } else {
        out_keys[out + place] = row[p];
        tk_write_index(indices, index_bytes, out + place, p);
      }
    }
    before_ahead += warp_popcount(before_bits);
    ties_ahead += warp_popcount(tied_bits);
  }
  if (sorted) {
    warp_sync();  // every selected key is in local memory
    tkw_write_sorted(sel_keys, sel_pos, (u32)k, lane, row, out_keys, indices, index_bytes, out);
  }
}
