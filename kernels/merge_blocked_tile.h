// One work-group's share of a global merge in the "blocked" form (merge_global_blocked.cl for runs
// of one width, merge_uneven_runs.cl for runs of any lengths): outputs [d0, d1) of merge(A, B),
// with A = src[a0 ..) and B = src[b0 ..), of which A gives [ai0, ai1) and B the rest, starting at
// d0 - ai0 (the partition kernel's merge_path_global split). The pieces are staged in local memory
// (coalesced), each work-item splits its ITEMS outputs with a local merge path and merges them
// serially into registers (ties to A: stable), and the group writes the keys back through local
// memory (coalesced) to dst[out0 ..), gathering each value from where its key came from.
// A kernel declares the tile's local arrays with BLOCKED_TILE_LOCALS and passes BLOCKED_TILE_ORIGINS
// as lp (the origin of each output, kept only with values).
#ifndef GPUSORT_MERGE_BLOCKED_TILE_H
#define GPUSORT_MERGE_BLOCKED_TILE_H
#include "merge_blocked.h"

#if HAS_VALUES
#define BLOCKED_TILE_LOCALS              \
  LOCAL_ARRAY key_t lk[BLOCKED_SLOTS]; \
  LOCAL_ARRAY u32 lp[BLOCKED_SLOTS]
#define BLOCKED_TILE_ORIGINS lp
#else
#define BLOCKED_TILE_LOCALS LOCAL_ARRAY key_t lk[BLOCKED_SLOTS]
#define BLOCKED_TILE_ORIGINS 0
#endif

// Value loads a work-item issues together when it gathers the values (a divisor of ITEMS; the
// driver sets it: src/algorithms/merge_sort.cpp, blocked_value_batch_define).
#ifndef BLOCKED_VALUE_BATCH
#define BLOCKED_VALUE_BATCH 1
#endif
#if ITEMS % BLOCKED_VALUE_BATCH != 0
#error "BLOCKED_VALUE_BATCH must divide ITEMS"
#endif

DEVICE_FN void blocked_merge_tile(LOCAL key_t* lk, LOCAL u32* lp, GLOBAL const key_t* src_keys,
                                  GLOBAL const value_t* src_values, GLOBAL key_t* dst_keys,
                                  GLOBAL value_t* dst_values, u64 a0, u64 b0, u64 ai0, u64 ai1, u64 d0, u64 d1,
                                  u64 out0, okey_t flip) {
  const u32 t = LOCAL_ID();
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
#if HAS_VALUES
  // Each value is gathered from where its key came from: BLOCKED_VALUE_BATCH of these loads go out
  // together before their stores (a loop over cnt waits on one dependent load at a time).
#pragma unroll 1
  for (u32 k0 = 0; k0 < ITEMS; k0 += BLOCKED_VALUE_BATCH) {
    value_t vr[BLOCKED_VALUE_BATCH];
#pragma unroll
    for (u32 j = 0; j < BLOCKED_VALUE_BATCH; ++j) {
      const u32 s = t + (k0 + j) * GROUP_SIZE;
      if (s < cnt) {
        const u32 f = lp[BLOCKED_SLOT(s)];
        vr[j] = src_values[f < na ? a0 + ai0 + f : b0 + bi0 + (f - na)];
      }
    }
#pragma unroll
    for (u32 j = 0; j < BLOCKED_VALUE_BATCH; ++j) {
      const u32 s = t + (k0 + j) * GROUP_SIZE;
      if (s < cnt) {
        dst_keys[out0 + s] = lk[BLOCKED_SLOT(s)];
        dst_values[out0 + s] = vr[j];
      }
    }
  }
#else
  for (u32 s = t; s < cnt; s += GROUP_SIZE) dst_keys[out0 + s] = lk[BLOCKED_SLOT(s)];
#endif
#if !HAS_VALUES
  (void)lp;
  (void)src_values;
  (void)dst_values;
#endif
}

#endif
