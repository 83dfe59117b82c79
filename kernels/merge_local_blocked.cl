// merge algorithm, local variant "blocked" (default): a register-blocked tile sort. Each work-item
// takes ITEMS consecutive keys of the tile into registers and sorts them there (odd-even
// transposition: adjacent exchanges of strictly misordered keys only, so it is stable); then
// log2(GROUP_SIZE) rounds merge runs of ITEMS, 2*ITEMS, ... keys through local memory, each
// work-item producing its own ITEMS outputs with one merge-path split and a serial merge
// (merge_blocked.h, ties to the left run). Values stay in global memory: each key carries its tile
// position, and the values are gathered once at the end (all read before any is written, so the
// tile may be sorted in place). Work O(TILE (ITEMS + log TILE)) with few barriers (two per round).
// The NVRTC check builds the widest case (8-byte keys, 16-byte values) with the items it gets:
// NVRTC-CHECK-DEFINES: GROUP_SIZE=256 ITEMS=8
#include "merge_blocked.h"

KERNEL merge_local_sort(GLOBAL const key_t* src_keys, GLOBAL const value_t* src_values, GLOBAL key_t* dst_keys,
                        GLOBAL value_t* dst_values, u64 n, okey_t flip) {
  LOCAL_ARRAY key_t lk[BLOCKED_SLOTS];
#if HAS_VALUES
  LOCAL_ARRAY u32 lp[BLOCKED_SLOTS];
#endif
  const u32 t = LOCAL_ID();
  const u64 base = GROUP_ID() * (u64)TILE;
  const u32 count = (u32)gs_min_u64((u64)TILE, n - base);
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) lk[BLOCKED_SLOT(s)] = src_keys[base + s];
  }
  BARRIER();

  // This work-item's ITEMS keys, sorted in registers. Slots past count hold garbage and stay put.
  const u32 first = t * ITEMS;
  const u32 valid = first < count ? gs_min_u32(ITEMS, count - first) : 0u;
  key_t kr[ITEMS];
  u32 pr[ITEMS];
#pragma unroll
  for (u32 k = 0; k < ITEMS; ++k) {
    kr[k] = lk[BLOCKED_SLOT(gs_min_u32(first + k, TILE))];
    pr[k] = first + k;
  }
#pragma unroll
  for (u32 r = 0; r < ITEMS; ++r) {
#pragma unroll
    for (u32 k = r & 1u; k + 1 < ITEMS; k += 2) {
      if (k + 1 < valid && key_before(kr[k + 1], kr[k], flip)) {
        const key_t tk = kr[k];
        kr[k] = kr[k + 1];
        kr[k + 1] = tk;
        const u32 tp = pr[k];
        pr[k] = pr[k + 1];
        pr[k + 1] = tp;
      }
    }
  }

  // Runs of w keys merged in pairs until the tile is one run; `w < count` is the same for the group.
  for (u32 w = ITEMS; w < count; w <<= 1) {
    BARRIER();  // every work-item has finished reading the previous round's tile
#pragma unroll
    for (u32 k = 0; k < ITEMS; ++k) {
      if (first + k < count) {
        lk[BLOCKED_SLOT(first + k)] = kr[k];
#if HAS_VALUES
        lp[BLOCKED_SLOT(first + k)] = pr[k];
#endif
      }
    }
    BARRIER();
    const u32 a0 = first & ~(2 * w - 1);
    const u32 a_len = a0 < count ? gs_min_u32(w, count - a0) : 0u;
    const u32 b0 = a0 + w;
    const u32 b_len = b0 < count ? gs_min_u32(w, count - b0) : 0u;
    const u32 diag = gs_min_u32(first - a0, a_len + b_len);
    const u32 ai = blocked_merge_path(lk, a0, a_len, b0, b_len, diag, flip);
    u32 from[ITEMS];
    blocked_serial_merge(lk, a0 + ai, a0 + a_len, b0 + diag - ai, b0 + b_len, flip, kr, from);
#if HAS_VALUES
#pragma unroll
    for (u32 k = 0; k < ITEMS; ++k) pr[k] = lp[BLOCKED_SLOT(from[k])];
#endif
  }

  BARRIER();
#pragma unroll
  for (u32 k = 0; k < ITEMS; ++k) {
    if (first + k < count) {
      lk[BLOCKED_SLOT(first + k)] = kr[k];
#if HAS_VALUES
      lp[BLOCKED_SLOT(first + k)] = pr[k];
#endif
    }
  }
  BARRIER();
#if HAS_VALUES
  value_t vr[ITEMS];
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) vr[k] = src_values[base + lp[BLOCKED_SLOT(s)]];
  }
  GLOBAL_BARRIER();  // in place: every value of the tile is read before any is overwritten
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) dst_values[base + s] = vr[k];
  }
#else
  (void)src_values;
  (void)dst_values;
#endif
  for (u32 k = 0; k < ITEMS; ++k) {
    const u32 s = t + k * GROUP_SIZE;
    if (s < count) dst_keys[base + s] = lk[BLOCKED_SLOT(s)];
  }
}
