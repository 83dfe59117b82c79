// Segmented LSD radix sort of uniform rows (rows x row_length, each row sorted on its own), CUDA:
// radix_onesweep.cl's passes with one look-back chain per row. The host is
// src/algorithms/segmented/segmented_onesweep.cpp; it builds this file with radix_onesweep.cl's
// switches (radix_policy.cpp, to_defines; never packed pairs or portions).
//  - segmented_histogram: every row's digit counts for every pass, from one read of the keys. Block b
//    counts chunk (b mod chunks) of row (b / chunks) with radix_lane_histogram.h's lane counters and
//    adds them to the row's block of hist (SEG_HIST_WORDS u64 words per row: [pass][RADIX], then the
//    row's -0/NaN flag word, radix_float_flip.h). Nothing is read back: every pass runs.
//  - segmented_onesweep, one launch per pass: the k-th block to start (the tile counter, so each
//    block's predecessors are already running) sorts tile (k mod tiles_per_row) of row
//    (k / tiles_per_row). Tiles never cross a row: every phase of radix_onesweep_phases.h sees the
//    row as the whole array (keys, values, status words and histogram offset to the row), so a row's
//    tile 0 scans the row's counts into the digits' starts and publishes them INCLUSIVE at once, the
//    look-back walks only the row's tiles, and the scatter writes within the row. Order, floats and
//    stability are the 1-D passes'. make_positions (argsort): the first pass makes each value its
//    key's position within the row instead of reading values.
// Packed pairs (radix_packed_pairs.h; the host's OnesweepPolicy::packed_pairs, rows of even length
// in 8-byte aligned buffers): a row's packed pairs lie in the row's parts of both buffers, as a 1-D
// array of row_length pairs does in its buffers.
// The listed kernels (segmented_listed_starts, _histogram, _onesweep) run the same passes over
// segments by offsets that the binned bin listed on the device (src/algorithms/segmented/
// segmented_listed.cpp; their comment below says how a block finds its segment).
// Rows hold fewer than 2^30 keys (30-bit status counts, 32-bit positions within a row).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 GROUP_SIZE=256 ITEMS=16 ONESWEEP_MIN_BLOCKS=3 ONESWEEP_SPLIT_STAGE=1 VALUE_BYTES=4
// NVRTC-CHECK-DEFINES: ONESWEEP_RECOMPUTE_DIGIT=1 ONESWEEP_LOOKBACK_SNAPSHOT=0 RADIX_HIST_COPIES=32
// NVRTC-CHECK-DEFINES: ONESWEEP_PACKED_IN=0 ONESWEEP_PACKED_OUT=0 ONESWEEP_PORTIONS=0 ONESWEEP_ALLOW_NEXT=1
#include "radix_common.h"

#if !defined(ITEMS) || !defined(ONESWEEP_MIN_BLOCKS) || !defined(ONESWEEP_SPLIT_STAGE) || !defined(ONESWEEP_RECOMPUTE_DIGIT) || \
    !defined(ONESWEEP_LOOKBACK_SNAPSHOT)
#error "segmented_onesweep.cl takes radix_onesweep.cl's switches from the host (radix_policy.cpp, to_defines)"
#endif
#if GROUP_SIZE != RADIX
#error "segmented_onesweep needs GROUP_SIZE == RADIX"
#endif
#if !GS_CUDA
#error "segmented_onesweep.cl is for CUDA"
#endif
#if !defined(ONESWEEP_PACKED_IN) || !defined(ONESWEEP_PACKED_OUT)
#error "segmented_onesweep.cl takes ONESWEEP_PACKED_IN and ONESWEEP_PACKED_OUT from the host"
#endif
#if ONESWEEP_PACKED_OUT > 1 || (defined(ONESWEEP_PORTIONS) && ONESWEEP_PORTIONS)
#error "segmented_onesweep.cl takes neither interleaved pairs nor portions"
#endif
#undef ONESWEEP_PORTIONS
#define ONESWEEP_PORTIONS 0
#ifndef ONESWEEP_ALLOW_NEXT
#define ONESWEEP_ALLOW_NEXT 0
#endif
// a packed-input pass keeps the values in registers from the load and stages each with its key
#define ONESWEEP_VALUES_IN_RANK ONESWEEP_PACKED_IN
#define ONESWEEP_BOUNDS __launch_bounds__(GROUP_SIZE, ONESWEEP_MIN_BLOCKS)
typedef u32 gpos_t;  // positions within a row
#define TILE (GROUP_SIZE * ITEMS)
#define WARPS (GROUP_SIZE / 32)
// the staging layout and the switches' rules of radix_onesweep.cl
#if ONESWEEP_SPLIT_STAGE
#define STAGE_BYTES (KEY_BITS / 8 + VALUE_BYTES)
#elif HAS_VALUES && VALUE_BYTES > KEY_BITS / 8
#define STAGE_BYTES VALUE_BYTES
#else
#define STAGE_BYTES (KEY_BITS / 8)
#endif
#if ONESWEEP_RECOMPUTE_DIGIT && (KEY_KIND == 2 || (HAS_VALUES && !ONESWEEP_SPLIT_STAGE))
#undef ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_RECOMPUTE_DIGIT 0
#endif
#define ONESWEEP_FULL_PATH (!(HAS_VALUES && !ONESWEEP_SPLIT_STAGE))

#include "radix_float_flip.h"
#include "radix_packed_pairs.h"
#include "radix_warp_rank.h"
#include "radix_block_scan.h"
#include "radix_lane_histogram.h"
#include "radix_lookback.h"
#include "radix_onesweep_phases.h"
#include "group_scan.h"
#include "segmented_offsets.h"

// u64 words of one row's histogram block: every pass's digit counts, then the -0/NaN flag word
#define SEG_HIST_WORDS (RADIX_PASSES * RADIX + 1)

// A histogram block's end: its lane counters added to a row's block of hist, and the row's -0/NaN
// flag where odd says a key of this thread is one (float keys). Every thread of the block calls it.
DEVICE_FN void seg_histogram_publish(const LOCAL u32* c, GLOBAL u64* row_hist, u32 odd) {
#if KEY_KIND == 2
  if (__syncthreads_or((int)odd) && LOCAL_ID() == 0) ATOMIC_ADD_U64(&row_hist[RADIX_PASSES * RADIX], 1u);
#else
  (void)odd;
  BARRIER();
#endif
#if ONESWEEP_ALLOW_NEXT
  GS_ALLOW_NEXT_GRID();  // the first pass's blocks may start once every block is here (they wait for our end)
#endif
  radix_hist_lanes_flush(c, row_hist);
}

// Dynamic local memory: the lane counters (RADIX_PASSES * HL_WORDS words; the host's
// onesweep_hist_local_bytes). hist is zeroed by the host.
KERNEL __launch_bounds__(GROUP_SIZE)
segmented_histogram(GLOBAL const key_t* RESTRICT keys, u64 row_length, u32 chunks, u64 span, okey_t flip,
                    GLOBAL u64* RESTRICT hist GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u32, c);
  const u32 t = LOCAL_ID();
  for (u32 i = t; i < RADIX_PASSES * HL_WORDS; i += GROUP_SIZE) c[i] = 0;
  BARRIER();
  const u64 row = GROUP_ID() / chunks, chunk = GROUP_ID() % chunks;
  const u64 row_first = row * row_length;
  const u64 begin = row_first + chunk * span;
  const u32 odd = radix_hist_lanes_count(c, keys, begin, gs_min_u64(row_first + row_length, begin + span), flip);
  seg_histogram_publish(c, hist + row * SEG_HIST_WORDS, odd);
}

// One tile's share of a pass over a row: radix_onesweep.cl's kernel with the row as its array (keys,
// values and the row's status words and histogram block offset to it). Every thread of the block
// calls it; the caller has zeroed warp_off and taken the tile's id.
DEVICE_FN void seg_onesweep_tile(GLOBAL const key_t* RESTRICT keys_in, GLOBAL const value_t* RESTRICT values_in,
                                 GLOBAL key_t* RESTRICT keys_out, GLOBAL value_t* RESTRICT values_out, u64 n,
                                 u32 tile, GLOBAL u32* row_status, GLOBAL const u64* RESTRICT row_hist, okey_t flip,
                                 u32 shift, u32 make_positions, LOCAL u8* stage, LOCAL gpos_t* global_base,
                                 LOCAL u32* warp_sums) {
  LOCAL u32(*warp_off)[RADIX] = (LOCAL u32(*)[RADIX])(stage + (u64)TILE * STAGE_BYTES);
  LOCAL u8* stage_digit = stage + (u64)TILE * STAGE_BYTES + WARPS * RADIX * 4u;
  LOCAL u32* snap = (LOCAL u32*)(stage + (((u64)TILE * STAGE_BYTES + WARPS * RADIX * 4u +
                                           (ONESWEEP_RECOMPUTE_DIGIT ? 0u : TILE) + 15u) & ~(u64)15u));
  const u32 t = LOCAL_ID(), lane = t & 31u, warp = t >> 5;
  const u64 base = (u64)tile * TILE;
  const u64 stripe = base + (u64)warp * 32u * ITEMS;
  const u32 in_stripe = (u32)gs_min_u64((u64)32u * ITEMS, n > stripe ? n - stripe : 0);
  const bool full_stripe = ONESWEEP_FULL_PATH && in_stripe == 32u * ITEMS;
  const bool full_count = (ONESWEEP_FULL_PATH || RADIX_UNIFORM_COUNT) && in_stripe == 32u * ITEMS;
  key_t k[ITEMS];
  u32 pos[ITEMS];
  u32 dpk[(ITEMS + 3) / 4];
  value_t v[ITEMS];
  LOCAL value_t* stage_values = (LOCAL value_t*)(stage + (ONESWEEP_SPLIT_STAGE ? (u64)TILE * (KEY_BITS / 8) : 0));
  onesweep_load_keys(k, v, keys_in, values_in, n, stripe, in_stripe, lane);
  const OnesweepCounts c = onesweep_count_and_publish(k, dpk, warp_off, warp_sums, row_status, row_hist, flip, shift,
                                                      tile, in_stripe, full_count);
  onesweep_rank_and_stage(k, v, dpk, pos, warp_off[warp], (LOCAL key_t*)stage, stage_values, stage_digit, snap,
                          row_status, tile, in_stripe, full_stripe);
#if HAS_VALUES && (VALUE_BYTES == 4 || VALUE_BYTES == 8) && !ONESWEEP_PACKED_IN
  if (make_positions) {  // argsort: the value is the key's position in its row
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) v[i] = (value_t)(stripe + i * 32u + lane);
  } else {
    onesweep_load_values(v, values_in, stripe, in_stripe, lane);
  }
#else
  (void)make_positions;
  onesweep_load_values(v, values_in, stripe, in_stripe, lane);
#endif
  u32 exclusive = c.exclusive;  // keys of digit t before this tile, in the row
  if (tile > 0) {
    exclusive = radix_lookback(row_status + t, snap, tile, t, exclusive);
    *(volatile GLOBAL u32*)(row_status + (u64)tile * RADIX + t) = STATUS_INCLUSIVE | (exclusive + c.count);
  }
  global_base[t] = exclusive - c.excl_digit;
#if ONESWEEP_ALLOW_NEXT
  GS_ALLOW_NEXT_GRID();
#endif
  onesweep_scatter(v, pos, (LOCAL key_t*)stage, stage_values, stage_digit, global_base, keys_out, values_out, n, base, flip,
                   shift, in_stripe);
}

// One pass over every row's tiles.
// status: the rows' status words, tiles_per_row x RADIX per row (status_next: the next pass's, cleared
// here, or == status for one pass only). Dynamic local memory as radix_onesweep's
// (onesweep_pass_local_bytes).
KERNEL ONESWEEP_BOUNDS
segmented_onesweep(GLOBAL const key_t* RESTRICT keys_in, GLOBAL const value_t* RESTRICT values_in,
                   GLOBAL key_t* RESTRICT keys_out, GLOBAL value_t* RESTRICT values_out, u64 row_length,
                   u32 tiles_per_row, okey_t flip, u32 shift, GLOBAL const u64* RESTRICT hist, GLOBAL u32* status,
                   GLOBAL u32* status_next, GLOBAL u32* tile_counter, u32 sweep, u32 make_positions GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, stage);
  LOCAL u32(*warp_off)[RADIX] = (LOCAL u32(*)[RADIX])(stage + (u64)TILE * STAGE_BYTES);
  LOCAL_ARRAY gpos_t global_base[RADIX];  // mod 2^32: position in the row of the digit's key at tile position s = base + s
  LOCAL_ARRAY u32 warp_sums[WARPS];
  LOCAL_ARRAY u32 s_id;
  const u32 t = LOCAL_ID();
  GS_WAIT_PREVIOUS_GRID();
  if (t == 0) s_id = ATOMIC_ADD_U32(&tile_counter[sweep], 1u);
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) warp_off[w][t] = 0;
  BARRIER();
  const u32 id = s_id;
  if (status_next != status) status_next[(u64)id * RADIX + t] = 0;
  const u64 row = id / tiles_per_row;
  const u32 tile = id - (u32)row * tiles_per_row;
  const u64 row_first = row * row_length;
  seg_onesweep_tile(keys_in + row_first, values_in + row_first, keys_out + row_first, values_out + row_first,
                    row_length, tile, status + row * tiles_per_row * RADIX, hist + row * SEG_HIST_WORDS, flip, shift,
                    make_positions, stage, global_base, warp_sums);
}

// ---- Segments by offsets, listed on the device (src/algorithms/segmented/segmented_listed.cpp) ----
// The binned bin's longest segments (kernels/segmented_long.cl segmented_bin_long lists them, in
// any order, and counts them in work[2]) sorted by the same passes: list entry j's tiles are the pass's
// virtual tiles tile_start[j] .. tile_start[j + 1] - 1, so each entry's status words lie together
// and its look-back walks only its own tiles; its histogram block is hist + j * SEG_HIST_WORDS. The
// grids are launched for the most tiles and chunks the list could need (the host's bound from n);
// blocks past the list's real total return at once, so no size is read back. Where the list is
// empty (most requests), every block returns before it touches shared memory or an atomic.

// The entry j of the list whose range of starts[0 .. count] holds x (starts[count] > x).
DEVICE_FN u32 listed_entry_of(GLOBAL const u32* starts, u32 count, u32 x) {
  u32 lo = 0, hi = count;  // starts[lo] <= x < starts[hi]
  while (hi - lo > 1u) {
    const u32 mid = lo + (hi - lo) / 2u;
    if (starts[mid] <= x)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// One block of GROUP_SIZE: every listed segment's first tile (tiles of TILE keys) and first
// histogram chunk (chunks of span keys), exclusive prefix sums, with the totals at [count].
KERNEL __launch_bounds__(GROUP_SIZE)
segmented_listed_starts(GLOBAL const u32* offsets_buffer, u64 first, u32 wide, GLOBAL const u64* list,
                        GLOBAL const u32* work, u64 span, GLOBAL u32* tile_start, GLOBAL u32* chunk_start) {
  LOCAL_ARRAY u32 scratch[GROUP_SIZE];
  const u32 t = LOCAL_ID();
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  const u32 count = work[2];
  if (count == 0u) return;  // no listed segment (the later listed kernels return at once too)
  const u32 per = (count + GROUP_SIZE - 1u) / GROUP_SIZE;
  const u32 begin = gs_min_u32(count, t * per), end = gs_min_u32(count, begin + per);
  u32 tiles = 0, chunks = 0;
  for (u32 j = begin; j < end; ++j) {
    const u64 length = offset_at(offsets, wide, list[j] + 1) - offset_at(offsets, wide, list[j]);
    tiles += (u32)((length + TILE - 1) / TILE);
    chunks += (u32)((length + span - 1) / span);
  }
  u32 tile_at = group_exclusive_scan_u32(tiles, scratch);
  u32 chunk_at = group_exclusive_scan_u32(chunks, scratch);
  if (t == GROUP_SIZE - 1u) {
    tile_start[count] = tile_at + tiles;
    chunk_start[count] = chunk_at + chunks;
  }
  for (u32 j = begin; j < end; ++j) {
    const u64 length = offset_at(offsets, wide, list[j] + 1) - offset_at(offsets, wide, list[j]);
    tile_start[j] = tile_at;
    chunk_start[j] = chunk_at;
    tile_at += (u32)((length + TILE - 1) / TILE);
    chunk_at += (u32)((length + span - 1) / span);
  }
}

// Every listed segment's digit counts for every pass: block b counts chunk b of the chunks
// chunk_start lays out (span keys each). Dynamic local memory and hist as segmented_histogram's.
KERNEL __launch_bounds__(GROUP_SIZE)
segmented_listed_histogram(GLOBAL const key_t* RESTRICT keys, GLOBAL const u32* offsets_buffer, u64 first, u32 wide,
                           GLOBAL const u64* list, GLOBAL const u32* work, GLOBAL const u32* chunk_start, u64 span,
                           okey_t flip, GLOBAL u64* RESTRICT hist GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u32, c);
  LOCAL_ARRAY u32 s_entry;
  const u32 t = LOCAL_ID(), b = GROUP_ID();
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  if (work[2] == 0u) return;  // no listed segment
  if (t == 0) {
    const u32 count = work[2];
    s_entry = b < chunk_start[count] ? listed_entry_of(chunk_start, count, b) : ~0u;
  }
  for (u32 i = t; i < RADIX_PASSES * HL_WORDS; i += GROUP_SIZE) c[i] = 0;
  BARRIER();
  const u32 entry = s_entry;
  if (entry == ~0u) return;  // past the list's chunks
  const u64 s = list[entry];
  const u64 end = offset_at(offsets, wide, s + 1);
  const u64 begin = offset_at(offsets, wide, s) + (u64)(b - chunk_start[entry]) * span;
  const u32 odd = radix_hist_lanes_count(c, keys, begin, gs_min_u64(end, begin + span), flip);
  seg_histogram_publish(c, hist + (u64)entry * SEG_HIST_WORDS, odd);
}

// One pass over every listed segment's tiles; as segmented_onesweep, the k-th block to start takes
// virtual tile k. status: tile_start[count] x RADIX words at most (status_next as segmented_onesweep's).
KERNEL ONESWEEP_BOUNDS
segmented_listed_onesweep(GLOBAL const key_t* RESTRICT keys_in, GLOBAL const value_t* RESTRICT values_in,
                          GLOBAL key_t* RESTRICT keys_out, GLOBAL value_t* RESTRICT values_out,
                          GLOBAL const u32* offsets_buffer, u64 first, u32 wide, GLOBAL const u64* list,
                          GLOBAL const u32* work, GLOBAL const u32* tile_start, okey_t flip, u32 shift,
                          GLOBAL const u64* RESTRICT hist, GLOBAL u32* status, GLOBAL u32* status_next,
                          GLOBAL u32* tile_counter, u32 sweep, u32 make_positions GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, stage);
  LOCAL u32(*warp_off)[RADIX] = (LOCAL u32(*)[RADIX])(stage + (u64)TILE * STAGE_BYTES);
  LOCAL_ARRAY gpos_t global_base[RADIX];
  LOCAL_ARRAY u32 warp_sums[WARPS];
  LOCAL_ARRAY u32 s_id, s_entry;
  const u32 t = LOCAL_ID();
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  GS_WAIT_PREVIOUS_GRID();
  if (work[2] == 0u) return;  // no listed segment
  if (t == 0) {
    const u32 id = ATOMIC_ADD_U32(&tile_counter[sweep], 1u);
    const u32 count = work[2];
    s_id = id;
    s_entry = id < tile_start[count] ? listed_entry_of(tile_start, count, id) : ~0u;
  }
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) warp_off[w][t] = 0;
  BARRIER();
  const u32 id = s_id, entry = s_entry;
  if (entry == ~0u) return;  // past the list's tiles
  if (status_next != status) status_next[(u64)id * RADIX + t] = 0;
  const u64 s = list[entry];
  const u64 row_first = offset_at(offsets, wide, s);
  const u64 length = offset_at(offsets, wide, s + 1) - row_first;
  const u32 first_tile = tile_start[entry];
  seg_onesweep_tile(keys_in + row_first, values_in + row_first, keys_out + row_first, values_out + row_first, length,
                    id - first_tile, status + (u64)first_tile * RADIX, hist + (u64)entry * SEG_HIST_WORDS, flip,
                    shift, make_positions, stage, global_base, warp_sums);
}
