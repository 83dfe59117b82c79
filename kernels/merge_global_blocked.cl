// merge algorithm, global variant "blocked" (default): merge path with the grid partitioned first.
//   merge_partition: one work-item per work-group of the pass finds, with one merge_path_global
//     search, how many keys of the left run precede that group's first output (splits[g]). All
//     searches of a pass run at once, so their memory latency overlaps instead of stalling each
//     merging group as the "path" variant's in-kernel searches do.
//   merge_pass: work-group g produces TILE = GROUP_SIZE*ITEMS consecutive outputs of one pair. It
//     stages the pieces of A and B it consumes in local memory (coalesced), each work-item splits
//     its ITEMS outputs with a local merge path and merges them serially into registers
//     (merge_blocked.h, ties to A: stable); the group then writes the keys back through local
//     memory (coalesced) and gathers each value from where its key came from.
// Geometry as merge_runs.h: pair p merges runs 2p and 2p+1 of `width` keys; a pair spans
// ceil(2*width / TILE) work-groups.
// The NVRTC check builds the widest case (8-byte keys, 16-byte values) with the items it gets:
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=8
#include "merge_runs.h"
#include "merge_path.h"
#include "merge_blocked.h"

// The pair and the first output (within the pair) of work-group g.
DEVICE_FN void blocked_group_place(u64 g, u64 width, u64* pair_start, u64* d0) {
  const u64 chunks = (2 * width + TILE - 1) / TILE;
  const u64 pair = g / chunks;
  *pair_start = pair * 2 * width;
  *d0 = (g - pair * chunks) * TILE;
}

KERNEL merge_partition(GLOBAL const key_t* src_keys, GLOBAL u64* splits, u64 n, u64 width, u64 groups,
                       okey_t flip) {
  const u64 g = GLOBAL_ID();
  if (g >= groups) return;
  u64 a0, d0;
  blocked_group_place(g, width, &a0, &d0);
  const u64 a_len = run_length(a0, width, n);
  const u64 b_len = run_length(a0 + width, width, n);
  splits[g] = merge_path_global(src_keys + a0, a_len, src_keys + a0 + width, b_len,
                                gs_min_u64(d0, a_len + b_len), flip);
}

KERNEL merge_pass(MERGE_PASS_ARGS, GLOBAL const u64* splits) {
  LOCAL_ARRAY key_t lk[BLOCKED_SLOTS];
#if HAS_VALUES
  LOCAL_ARRAY u32 lp[BLOCKED_SLOTS];
#endif
  const u32 t = LOCAL_ID();
  const u64 g = GROUP_ID();
  u64 a0, d0;
  blocked_group_place(g, width, &a0, &d0);
  const u64 a_len = run_length(a0, width, n);
  const u64 b0 = a0 + width;
  const u64 b_len = run_length(b0, width, n);
  const u64 total = a_len + b_len;
  if (d0 >= total) return;  // the whole group leaves together, before any barrier
  const u64 d1 = gs_min_u64(d0 + TILE, total);
  // The next group starts where this one ends, unless this is the pair's last group.
  const u64 ai0 = splits[g];
  const u64 ai1 = d1 == total ? a_len : splits[g + 1];
  const u64 bi0 = d0 - ai0;
  const u32 na = (u32)(ai1 - ai0);
  const u32 cnt = (u32)(d1 - d0);
  GLOBAL const key_t* a = src_keys + a0 + ai0;
  GLOBAL const key_t* b = src_keys + b0 + bi0;
  for (u32 s = t; s < cnt; s += GROUP_SIZE) lk[BLOCKED_SLOT(s)] = s < na ? a[s] : b[s - na];
  BARRIER();

  const u32 first = gs_min_u32(t * ITEMS, cnt);
  const u32 ai = blocked_merge_path(lk, 0, na, na, cnt - na, first, flip);
  key_t kr[ITEMS];
  u32 from[ITEMS];
  blocked_serial_merge(lk, ai, na, na + first - ai, cnt, flip, kr, from);
  BARRIER();  // every work-item has read its inputs; the tile now takes the outputs
#pragma unroll
  for (u32 k = 0; k < ITEMS; ++k) {
    if (first + k < cnt) {
      lk[BLOCKED_SLOT(first + k)] = kr[k];
#if HAS_VALUES
      lp[BLOCKED_SLOT(first + k)] = from[k];
#endif
    }
  }
  BARRIER();
  const u64 out = a0 + d0;
  for (u32 s = t; s < cnt; s += GROUP_SIZE) {
    dst_keys[out + s] = lk[BLOCKED_SLOT(s)];
#if HAS_VALUES
    const u32 f = lp[BLOCKED_SLOT(s)];
    dst_values[out + s] = src_values[f < na ? a0 + ai0 + f : b0 + bi0 + (f - na)];
#endif
  }
#if !HAS_VALUES
  (void)src_values;
  (void)dst_values;
#endif
}
