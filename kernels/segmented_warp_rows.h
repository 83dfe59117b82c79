// CUDA, rows of at most 32 keys (segmented_tiles.cl's segmented_tiles_warp): each row sorted by a
// bitonic network across the lanes of part of a warp, in registers, with no shared memory and no
// barrier. A row of row_length keys takes width = 2^width_log2 >= row_length lanes (a warp holds
// 32 / width rows); lane e of a row holds its key e, lanes past the row's end hold padding.
//
// The network sorts (ordered_key(k, flip), e), a strict total order: equal keys keep their input
// order (stable, in both orders, since flip is inside the ordered key) and padding, all ones with
// e >= row_length, sorts after every key. It is bitonic_network.h's form in which every comparator
// puts the smaller element lower (a stage's first step pairs a position with its mirror), so the
// padding never moves below a key. The original key bits travel with the image (NaN payloads, the
// sign of zero); at the end each lane writes its key and gathers its value by e (or writes e itself
// for an argsort). Keys are read before the network's shuffles, values after it but before any lane
// writes (a warp barrier between), so in place is safe.
#ifndef GPUSORT_SEGMENTED_WARP_ROWS_H
#define GPUSORT_SEGMENTED_WARP_ROWS_H
#include "keys.h"
#include "nvidia_ops.h"

#if GS_CUDA
DEVICE_FN u64 warp_shuffle_u64(u64 v, u32 src) {
  return ((u64)warp_shuffle((u32)(v >> 32), src) << 32) | (u64)warp_shuffle((u32)v, src);
}
#if KEY_BITS == 64
#define warp_shuffle_key(v, src) warp_shuffle_u64((v), (src))
#define warp_shuffle_okey(v, src) warp_shuffle_u64((v), (src))
#else
#define warp_shuffle_key(v, src) ((key_t)warp_shuffle((u32)(v), (src)))
#define warp_shuffle_okey(v, src) warp_shuffle((v), (src))
#endif

// Every lane of every warp of the group calls it (lanes without a row too: the shuffles take the full warp).
DEVICE_FN void warp_rows_sort(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                              GLOBAL value_t* values_out, u64 rows, u32 row_length, u32 width_log2, u32 positions,
                              okey_t flip) {
  const u32 lane = LOCAL_ID() & 31u, width = 1u << width_log2;
  const u64 row = (GROUP_ID() * LOCAL_SIZE() + LOCAL_ID()) >> width_log2;
  const u32 e0 = lane & (width - 1u);
  const int valid = row < rows && e0 < row_length;
  const u64 base = row * row_length;
  key_t k = valid ? keys_in[base + e0] : (key_t)0;
  okey_t o = valid ? ordered_key(k, flip) : (okey_t)KEY_ALL_ONES;
  u32 e = e0;
  for (u32 size = 2; size <= width; size <<= 1) {
    for (u32 j = size >> 1; j > 0; j >>= 1) {
      const u32 partner = j == (size >> 1) ? lane ^ (size - 1u) : lane ^ j;
      const key_t pk = warp_shuffle_key(k, partner);
      const okey_t po = warp_shuffle_okey(o, partner);
      const u32 pe = warp_shuffle(e, partner);
      const int partner_first = po < o || (po == o && pe < e);
      if (lane < partner ? partner_first : !partner_first) {  // the lower lane keeps the smaller
        k = pk;
        o = po;
        e = pe;
      }
    }
  }
#if HAS_VALUES
  // In place, another lane of the row may write the value read here: every read before any write.
  value_t v;
  if (valid && !positions) v = values_in[base + e];
  warp_sync();
#endif
  if (!valid) return;
  keys_out[base + e0] = k;
#if HAS_VALUES
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
  if (positions) v = (value_t)e;
#endif
  values_out[base + e0] = v;
#endif
}
#endif  // GS_CUDA

#endif  // GPUSORT_SEGMENTED_WARP_ROWS_H
