// CUDA, rows of at most 32 keys (segmented_tiles.cl's segmented_tiles_warp): each row sorted by a
// bitonic network across the lanes of part of a warp, in registers, with no shared memory and no
// barrier. A row of row_length keys takes width = 2^width_log2 >= row_length lanes (a warp holds
// 32 / width rows); lane e of a row holds its key e, lanes past the row's end hold padding.
//
// The network sorts (ordered_key(k, flip), e), a strict total order: equal keys keep their input
// order (stable, in both orders, since flip is inside the ordered key) and padding, all ones with
// e >= row_length, sorts after every key. It is bitonic_network.h's form in which every comparator
// puts the smaller element lower (a stage's first step pairs a position with its mirror), so the
// padding never moves below a key. The original key bits are read again by e at the end (NaN
// payloads, the sign of zero), with the value (or e itself for an argsort); every lane reads before
// any lane writes (a warp barrier between), so in place is safe.
#ifndef GPUSORT_SEGMENTED_WARP_ROWS_H
#define GPUSORT_SEGMENTED_WARP_ROWS_H
#include "keys.h"
#include "nvidia_ops.h"

#if GS_CUDA
#if KEY_BITS == 64
#define warp_shuffle_okey(v, src) warp_shuffle_u64((v), (src))
#else
#define warp_shuffle_okey(v, src) warp_shuffle((v), (src))
#endif

#ifndef WARP_ROW_ITEMS
#define WARP_ROW_ITEMS 1
#endif

// Every lane of every warp of the group calls it (lanes without a row too: the shuffles take the full
// warp). Each lane holds one element of WARP_ROW_ITEMS rows (the host's SegmentedTilesTuning::
// warp_items): a warp's rows for item i follow those for item i - 1, so each item's loads are one
// contiguous span, and all are issued before the networks, whose chains are independent (more loads
// in flight per SM where one key per lane left the kernel waiting on memory). The networks move the
// image and the position only; each key is read again from the input by its position at the end
// (from the cache: it was just read), which costs fewer shuffles than carrying it.
DEVICE_FN void warp_rows_sort(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                              GLOBAL value_t* values_out, u64 rows, u32 row_length, u32 width_log2, u32 positions,
                              okey_t flip) {
  const u32 lane = LOCAL_ID() & 31u, width = 1u << width_log2;
  const u64 warp = (GROUP_ID() * LOCAL_SIZE() + LOCAL_ID()) >> 5;
  const u32 warp_rows = 32u >> width_log2;  // rows per warp and item
  const u64 first_row = warp * warp_rows * WARP_ROW_ITEMS + (lane >> width_log2);
  const u32 e0 = lane & (width - 1u);
  okey_t o[WARP_ROW_ITEMS];
  u32 e[WARP_ROW_ITEMS];
#pragma unroll
  for (u32 i = 0; i < WARP_ROW_ITEMS; ++i) {
    const u64 row = first_row + (u64)i * warp_rows;
    const int valid = row < rows && e0 < row_length;
    o[i] = valid ? ordered_key(keys_in[row * row_length + e0], flip) : (okey_t)KEY_ALL_ONES;
    e[i] = e0;
  }
  for (u32 size = 2; size <= width; size <<= 1) {
    for (u32 j = size >> 1; j > 0; j >>= 1) {
      const u32 partner = j == (size >> 1) ? lane ^ (size - 1u) : lane ^ j;
#pragma unroll
      for (u32 i = 0; i < WARP_ROW_ITEMS; ++i) {
        const okey_t po = warp_shuffle_okey(o[i], partner);
        const u32 pe = warp_shuffle(e[i], partner);
        const int partner_first = po < o[i] || (po == o[i] && pe < e[i]);
        if (lane < partner ? partner_first : !partner_first) {  // the lower lane keeps the smaller
          o[i] = po;
          e[i] = pe;
        }
      }
    }
  }
  // In place, another lane of the row may write what is read here: every read before any write.
  key_t k[WARP_ROW_ITEMS];
#if HAS_VALUES
  value_t v[WARP_ROW_ITEMS];
#endif
#pragma unroll
  for (u32 i = 0; i < WARP_ROW_ITEMS; ++i) {
    const u64 row = first_row + (u64)i * warp_rows;
    if (row < rows && e0 < row_length) {
      k[i] = keys_in[row * row_length + e[i]];
#if HAS_VALUES
      if (!positions) v[i] = values_in[row * row_length + e[i]];
#endif
    }
  }
  warp_sync();
#pragma unroll
  for (u32 i = 0; i < WARP_ROW_ITEMS; ++i) {
    const u64 row = first_row + (u64)i * warp_rows;
    if (row >= rows || e0 >= row_length) continue;
    keys_out[row * row_length + e0] = k[i];
#if HAS_VALUES
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
    if (positions) v[i] = (value_t)e[i];
#endif
    values_out[row * row_length + e0] = v[i];
#endif
  }
}
#endif  // GS_CUDA

#endif  // GPUSORT_SEGMENTED_WARP_ROWS_H
