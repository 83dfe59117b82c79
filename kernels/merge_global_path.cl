// merge algorithm, global variant "path" (default): merge-path merge. Each work-group produces
// TILE = GROUP_SIZE*ITEMS consecutive outputs of one pair: two merge_path searches in global memory
// (merge_path.h) find which keys of the left run A and right run B those outputs consume; the group
// loads them into local memory (coalesced), each work-item splits its ITEMS outputs with one more
// merge_path search in local memory and merges them sequentially (ties to A: stable), then the
// group writes keys and gathers values in order (coalesced). Work O(n) per pass plus
// O((n/ITEMS) log TILE) searches; every work-item does the same amount of work whatever the data.
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=8
#include "merge_runs.h"
#include "merge_path.h"

#if !defined(GROUP_SIZE) || !defined(ITEMS)
#error "GROUP_SIZE and ITEMS must be defined"
#endif
#define TILE (GROUP_SIZE * ITEMS)

KERNEL merge_pass(MERGE_PASS_ARGS) {
  LOCAL_ARRAY key_t lk[TILE];
  LOCAL_ARRAY u32 lp[TILE];
  LOCAL_ARRAY u64 split[2];
  const u32 t = LOCAL_ID();
  const u64 pair_span = 2 * width;
  const u64 chunks = (pair_span + TILE - 1) / TILE;  // work-groups per pair
  const u64 pair = GROUP_ID() / chunks;
  const u64 a0 = pair * pair_span;
  const u64 d0 = (GROUP_ID() - pair * chunks) * TILE;
  const u64 a_len = run_length(a0, width, n);
  const u64 b0 = a0 + width;
  const u64 b_len = run_length(b0, width, n);
  const u64 total = a_len + b_len;
  if (d0 >= total) return;  // the whole group leaves together, before any barrier
  const u64 d1 = gs_min_u64(d0 + TILE, total);
  GLOBAL const key_t* a = src_keys + a0;
  GLOBAL const key_t* b = src_keys + b0;
  if (t == 0) split[0] = merge_path_global(a, a_len, b, b_len, d0, flip);
  if (t == (GROUP_SIZE > 1 ? 1u : 0u)) split[1] = merge_path_global(a, a_len, b, b_len, d1, flip);
  BARRIER();
  const u64 ai0 = split[0];
  const u64 bi0 = d0 - ai0;
  const u64 ai1 = merge_split_after(ai0, bi0, split[1], d1 - d0, a_len, b_len);
  const u32 na = (u32)(ai1 - ai0);
  const u32 nb = (u32)((d1 - ai1) - bi0);
  const u32 cnt = na + nb;
  for (u32 s = t; s < cnt; s += GROUP_SIZE) lk[s] = s < na ? a[ai0 + s] : b[bi0 + (s - na)];
  BARRIER();
  u32 from[ITEMS];
  const u32 diag = gs_min_u32(t * ITEMS, cnt);
  u32 ai = merge_path_local(lk, na, lk + na, nb, diag, flip);
  u32 bi = diag - ai;
  for (u32 k = 0; k < ITEMS; ++k) {
    int take_a = bi >= nb || (ai < na && !key_before(lk[na + bi], lk[ai], flip));
    from[k] = take_a ? ai : na + bi;
    if (take_a)
      ++ai;
    else
      ++bi;
  }
  for (u32 k = 0; k < ITEMS; ++k)
    if (diag + k < cnt) lp[diag + k] = from[k];
  BARRIER();
  const u64 out = a0 + d0;
  for (u32 s = t; s < cnt; s += GROUP_SIZE) {
    const u32 f = lp[s];
    const u64 src = f < na ? a0 + ai0 + f : b0 + bi0 + (f - na);
    merge_move(dst_keys, dst_values, out + s, lk[f], src_values, src);
  }
}
