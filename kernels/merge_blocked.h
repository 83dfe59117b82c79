// The register-blocked pieces of the merge algorithm's "blocked" variants (merge_local_blocked.cl,
// merge_global_blocked.cl): every work-item owns ITEMS consecutive outputs and keeps them in
// registers; local memory only stages a tile between rounds.
//   - Local arrays are padded by one slot per 32 (BLOCKED_SLOT): work-item t's consecutive slots
//     t*ITEMS .. t*ITEMS+ITEMS-1 then fall in different banks, and strided (coalesced) copies stay
//     conflict-free. BLOCKED_SLOTS has one spare slot past the tile, so a serial merge may load the
//     slot after an exhausted run without a bounds branch (the value read is never chosen).
//   - blocked_merge_path splits a merge of two runs of the padded tile at one output diagonal (the
//     local form of merge_path.h, ties to A); blocked_serial_merge then produces ITEMS outputs with
//     one local load per output.
// Needs GROUP_SIZE and ITEMS (powers of two) besides keys.h's defines.
#ifndef GPUSORT_MERGE_BLOCKED_H
#define GPUSORT_MERGE_BLOCKED_H
#include "keys.h"

#if !defined(GROUP_SIZE) || !defined(ITEMS)
#error "GROUP_SIZE and ITEMS must be defined"
#endif
#define TILE (GROUP_SIZE * ITEMS)
#define BLOCKED_SLOT(i) ((i) + ((i) >> 5))
#define BLOCKED_SLOTS (BLOCKED_SLOT(TILE) + 1)

// Number of keys of run A = lk[a0 .. a0+a_len) among the first `diag` outputs of merge(A, B), with
// B = lk[b0 .. b0+b_len) (unpadded positions). b[diag-1-mid] strictly before a[mid] means a[mid]
// is not among them.
DEVICE_FN u32 blocked_merge_path(LOCAL const key_t* lk, u32 a0, u32 a_len, u32 b0, u32 b_len, u32 diag,
                                 okey_t flip) {
  u32 lo = diag > b_len ? diag - b_len : 0;
  u32 hi = gs_min_u32(diag, a_len);
  while (lo < hi) {
    const u32 mid = (lo + hi) >> 1;
    if (key_before(lk[BLOCKED_SLOT(b0 + diag - 1 - mid)], lk[BLOCKED_SLOT(a0 + mid)], flip))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// ITEMS outputs of merge(lk[ai .. a_end), lk[bi .. b_end)) into kr[], with from[] the tile position
// each came from (at most TILE). Ties take A (stable). Outputs past the end of both runs are
// garbage; callers write only the ones they own.
DEVICE_FN void blocked_serial_merge(LOCAL const key_t* lk, u32 ai, u32 a_end, u32 bi, u32 b_end, okey_t flip,
                                    key_t* kr, u32* from) {
  key_t ka = lk[BLOCKED_SLOT(gs_min_u32(ai, TILE))];
  key_t kb = lk[BLOCKED_SLOT(gs_min_u32(bi, TILE))];
#pragma unroll
  for (u32 k = 0; k < ITEMS; ++k) {
    const int take_a = bi >= b_end || (ai < a_end && !key_before(kb, ka, flip));
    kr[k] = take_a ? ka : kb;
    from[k] = gs_min_u32(take_a ? ai : bi, TILE);
    const u32 next = take_a ? ++ai : ++bi;
    const key_t kn = lk[BLOCKED_SLOT(gs_min_u32(next, TILE))];
    if (take_a)
      ka = kn;
    else
      kb = kn;
  }
}

#endif
