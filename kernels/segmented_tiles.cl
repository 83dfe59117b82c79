// Segmented sorts, the tile bin: short segments sorted whole by one work-group each, several per
// work-group, in local memory: every key (and value) is read once and written once.
//
// A work-group's tile is n <= 65536 consecutive keys holding whole segments: whole uniform rows
// (segmented_tiles_rows: rows_per_group of row_length keys, the last group fewer), or the segments
// that start in the group's window of the offsets (segmented_tiles_offsets, below). The tile is sorted
// in local memory by (row, ordered key) with LSD digit passes (radix_group_digits.h, shared with
// radix_single_group.cl): first the key's RADIX_PASSES digits of ordered_key(k, flip), then the digits
// of the row key (uniform rows: the row's index in the tile; offsets: the tile position its segment
// starts at, kept in row_start), none for a tile of one row. Each key carries its position in the tile
// (u16) from pass to pass: the row passes read the row from it, and at the end it tells which value
// goes with the key (the values are loaded into local memory once, never moved) or, for an argsort,
// the key's position within its row. LSD passes are stable, the tile starts in row order, and rows
// are never flipped: each row comes out sorted, stable, in the order flip asks for (keys.h:
// descending is the exact reverse, so equal keys keep their input order). A digit that is the same
// for the whole tile skips its scatter (narrow data, few rows).
// No sub-group or warp intrinsics: the same source runs under OpenCL (PoCL) and CUDA (NVRTC).
//
// Out of place or in place: keys_in / values_in may be the output buffers (every group reads its
// whole tile before it writes), and are otherwise only read. positions (VALUE_BYTES 4 or 8 only):
// values_in is not read, each value is its key's position within its row.
//
// Local memory (dynamic, laid out by the host, segmented_tiles.cpp; `slots` a multiple of 16 so
// every sub-array starts 16-byte aligned): values[slots] (pairs that are not positions: the widest
// alignment first), keys[2][slots], counters[SG_PAD(RADIX * GROUP_SIZE)] u32, partial[GROUP_SIZE] u32,
// the skip flag u32 (and padding to 16 bytes), tile positions[2][slots] u16, and for offsets
// row_start[slots] u16 and short_starts[ceil(slots / 32)] u32 (a bit per tile position: a segment
// that another kernel sorts starts there).
//
// Specialised by keys.h's defines, RADIX_BITS (4) and GROUP_SIZE (a multiple of RADIX, power of two);
// the shape is in the arguments, so one program serves every row length and both forms.
// NVRTC-CHECK-DEFINES: RADIX_BITS=4 GROUP_SIZE=256 WARP_ROW_ITEMS=2
#include "radix_group_digits.h"
#include "segmented_offsets.h"

// Which row a tile position belongs to: uniform rows of row_length keys (the row index), or, with
// row_length 0, segments given by offsets (the tile position the segment starts at, row_start).
DEVICE_FN u32 tile_row_key(u32 pos, u32 row_length, LOCAL const u16* row_start) {
  return row_length ? pos / row_length : (u32)row_start[SG_PAD(pos)];
}
DEVICE_FN u32 tile_row_first(u32 pos, u32 row_length, LOCAL const u16* row_start) {
  return row_length ? pos - pos % row_length : (u32)row_start[SG_PAD(pos)];
}

// The digit of a pass: the key's digits first, then the row's.
DEVICE_FN u32 tile_digit(key_t k, u32 pos, okey_t flip, u32 pass, u32 row_length, LOCAL const u16* row_start) {
  if (pass < RADIX_PASSES) return radix_digit(k, flip, pass * RADIX_BITS);
  return (tile_row_key(pos, row_length, row_start) >> ((pass - RADIX_PASSES) * RADIX_BITS)) & RADIX_MASK;
}

// Words of local memory between the keys and the tile positions: the counters, partial sums and
// skip flag, rounded up to 16 bytes (segmented_tiles.cpp lays them out alike).
#define ST_WORDS ((SG_PAD(SG_ENTRIES) + GROUP_SIZE + 1 + 3) / 4 * 4)

// The word after the counters (partial[0] of the digit scans): the offsets kernel's verdict, set
// before tile_sort reads it, on whether some segment of the tile is longer than rank_max (the
// digit scans write partial only after the barrier that follows every read of it).
DEVICE_FN LOCAL u32* tile_counters(LOCAL u8* smem, int gather, u32 slots) {
  LOCAL key_t* keys = (LOCAL key_t*)((LOCAL value_t*)smem + (gather ? slots : 0u));
  return (LOCAL u32*)(keys + 2 * slots);
}
DEVICE_FN LOCAL u32* tile_long_flag(LOCAL u8* smem, int gather, u32 slots) {
  return tile_counters(smem, gather, slots) + SG_PAD(SG_ENTRIES);
}

// The tile positions' two arrays in the layout above; the offsets' row starts follow them, then
// the short segments' start bits.
DEVICE_FN LOCAL u16* tile_positions(LOCAL u8* smem, int gather, u32 slots) {
  LOCAL key_t* keys = (LOCAL key_t*)((LOCAL value_t*)smem + (gather ? slots : 0u));
  return (LOCAL u16*)((LOCAL u32*)(keys + 2 * slots) + ST_WORDS);
}
DEVICE_FN LOCAL u32* tile_short_starts(LOCAL u8* smem, int gather, u32 slots) {
  return (LOCAL u32*)(tile_positions(smem, gather, slots) + 3 * slots);
}

// Loads the n keys (and values) at base, sorts them by (row, key) and stores them. row_bits: the
// bits of the largest row key in the tile (0: one row). by_rank (offsets only): where the tile's
// long flag (tile_long_flag) is clear, each key's place is counted instead of the digit passes: the
// keys of its segment that come before it (smaller, or equal and earlier), one read of the segment
// from local memory per key and three barriers in all (the flag, the load, the scatter), where the passes take about a dozen digit
// rounds of several barriers each. skip_short (offsets only): the segments whose start bit is set in
// tile_short_starts are sorted along but not stored (another kernel writes them). Every work-item of
// the group calls it.
DEVICE_FN void tile_sort(LOCAL u8* smem, GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out,
                         GLOBAL const value_t* values_in, GLOBAL value_t* values_out, u64 base, u32 n,
                         u32 row_length, u32 row_bits, u32 positions, okey_t flip, u32 slots, u32 by_rank,
                         u32 skip_short) {
  const u32 t = LOCAL_ID();
  const int gather = HAS_VALUES && !positions;  // values loaded, and gathered by position at the end
  LOCAL value_t* vtile = (LOCAL value_t*)smem;
  LOCAL key_t* ksrc = (LOCAL key_t*)(vtile + (gather ? slots : 0u));
  LOCAL key_t* kdst = ksrc + slots;
  LOCAL u32* counters = (LOCAL u32*)(kdst + slots);
  LOCAL u32* partial = counters + SG_PAD(SG_ENTRIES);
  LOCAL u32* skip = partial + GROUP_SIZE;
  LOCAL u16* psrc = tile_positions(smem, gather, slots);
  LOCAL u16* pdst = psrc + slots;
  LOCAL const u16* row_start = pdst + slots;  // offsets only
  // Tile positions travel with the keys when something reads them: the row passes or the values.
  const int carry = row_bits > 0 || HAS_VALUES;

  for (u32 i = t; i < n; i += GROUP_SIZE) {  // striped: coalesced global reads
    ksrc[SG_PAD(i)] = keys_in[base + i];
    if (carry) psrc[SG_PAD(i)] = (u16)i;
#if HAS_VALUES
    if (gather) vtile[SG_PAD(i)] = values_in[base + i];
#endif
  }
  if (t == 0) *skip = 0;
  BARRIER();

  u32 passes = row_length == 1 || n <= 1 ? 0u : RADIX_PASSES + (row_bits + RADIX_BITS - 1) / RADIX_BITS;
  if (by_rank && passes != 0u && *tile_long_flag(smem, gather, slots) == 0u) {
    for (u32 i = t; i < n; i += GROUP_SIZE) {
      const key_t k = ksrc[SG_PAD(i)];
      const okey_t o = ordered_key(k, flip);
      const u32 first = (u32)row_start[SG_PAD(i)];
      u32 to = first;
      for (u32 j = first; j < n && (u32)row_start[SG_PAD(j)] == first; ++j) {
        const okey_t other = ordered_key(ksrc[SG_PAD(j)], flip);
        to += other < o || (other == o && j < i) ? 1u : 0u;
      }
      kdst[SG_PAD(to)] = k;
      if (carry) pdst[SG_PAD(to)] = (u16)i;
    }
    BARRIER();
    ksrc = kdst;
    psrc = pdst;
    passes = 0u;
  }
  const u32 per = (n + GROUP_SIZE - 1) / GROUP_SIZE;
  const u32 begin = gs_min_u32(n, t * per);
  const u32 end = gs_min_u32(n, begin + per);
  for (u32 pass = 0; pass < passes; ++pass) {
    group_digits_clear(counters, t);
    for (u32 p = begin; p < end; ++p) {
      const u32 pos = carry ? (u32)psrc[SG_PAD(p)] : 0u;
      counters[SG_PAD(tile_digit(ksrc[SG_PAD(p)], pos, flip, pass, row_length, row_start) * GROUP_SIZE + t)] += 1u;
    }
    if (group_digits_scan(counters, partial, skip, n, pass)) continue;  // the tile stays as it is
    for (u32 p = begin; p < end; ++p) {  // stable scatter into the other buffers
      const key_t k = ksrc[SG_PAD(p)];
      const u32 pos = carry ? (u32)psrc[SG_PAD(p)] : 0u;
      const u32 e = SG_PAD(tile_digit(k, pos, flip, pass, row_length, row_start) * GROUP_SIZE + t);
      const u32 to = counters[e];
      counters[e] = to + 1u;
      kdst[SG_PAD(to)] = k;
      if (carry) pdst[SG_PAD(to)] = (u16)pos;
    }
    BARRIER();
    LOCAL key_t* kt = ksrc;
    ksrc = kdst;
    kdst = kt;
    LOCAL u16* pt = psrc;
    psrc = pdst;
    pdst = pt;
  }

  LOCAL const u32* short_starts = tile_short_starts(smem, gather, slots);
  for (u32 i = t; i < n; i += GROUP_SIZE) {
    if (skip_short) {
      const u32 first = (u32)row_start[SG_PAD(i)];
      if ((short_starts[first >> 5] >> (first & 31u)) & 1u) continue;
    }
    keys_out[base + i] = ksrc[SG_PAD(i)];
#if HAS_VALUES
    const u32 from = psrc[SG_PAD(i)];
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
    if (positions) {
      values_out[base + i] = (value_t)(from - tile_row_first(from, row_length, row_start));
      continue;
    }
#endif
    values_out[base + i] = vtile[SG_PAD(from)];
#endif
  }
}

DEVICE_FN u32 bits_u32(u32 x) {
  u32 b = 0;
  while (b < 32 && (x >> b) != 0) ++b;
  return b;
}

// Uniform rows: group g sorts rows [g * rows_per_group, ...).
KERNEL segmented_tiles_rows(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                            GLOBAL value_t* values_out, u64 rows, u32 row_length, u32 rows_per_group, u32 positions,
                            okey_t flip, u32 slots GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, smem);
  const u64 first_row = GROUP_ID() * rows_per_group;
  const u32 tile_rows = (u32)gs_min_u64(rows_per_group, rows - first_row);
  tile_sort(smem, keys_in, keys_out, values_in, values_out, first_row * row_length, tile_rows * row_length,
            row_length, bits_u32(tile_rows - 1u), positions, flip, slots, 0u, 0u);
}

// Segments by offsets (offsets: count + 1 of them, from element `first` of the buffer): group g takes
// the segments that start in its window [g * window, (g + 1) * window) and are at most window keys
// long. Only the last segment starting in a window can be longer (the next one starts after it ends,
// past the window), so those taken are consecutive and span at most 2 x window keys: the tile.
// Longer segments are left as they are, for another bin. A tile whose segments all hold at most
// rank_max keys (0: never) is sorted by counting each key's place (tile_sort's by_rank).
// Segments of 1 to short_max keys (0: none) are other kernels' (CUDA's warp segments and block classes):
// they are never written here, and a window whose word of own_windows is 0 (segmented_long.cl's
// segmented_bin_long sets it where a longer segment that fits starts) sorts nothing, without even a
// search of the offsets.
KERNEL segmented_tiles_offsets(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                               GLOBAL value_t* values_out, GLOBAL const u32* offsets_buffer, u64 first, u32 wide,
                               u64 count, u32 window, u32 positions, okey_t flip, u32 rank_max, u32 short_max,
                               GLOBAL const u32* own_windows, u32 slots GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, smem);
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  const u64 from = GROUP_ID() * window;
  // Nothing of its own in the window: the whole group returns before any barrier (the early return
  // PoCL disliked, below, cannot happen there: short_max is 0 but on CUDA).
  if (short_max != 0u && own_windows[GROUP_ID()] == 0u) return;
  const u64 lo = offsets_lower_bound(offsets, wide, 0, count, from);
  u64 hi = offsets_lower_bound(offsets, wide, lo, count, from + window);
  if (hi > lo && offset_at(offsets, wide, hi) - offset_at(offsets, wide, hi - 1) > window) --hi;
  const u64 base = offset_at(offsets, wide, lo);
  // n may be 0 (a window inside a long segment): the group still runs through tile_sort, which then
  // does nothing. With an early return here instead, PoCL (2026-12-06) left stray values one past
  // another group's tile now and then; the cause was not found.
  const u32 n = (u32)(offset_at(offsets, wide, hi) - base);
  const int gather = HAS_VALUES && !positions;
  LOCAL u16* row_start = tile_positions(smem, gather, slots) + 2 * slots;
  LOCAL u32* long_flag = tile_long_flag(smem, gather, slots);
  // Each tile position's segment start, with no search per key: every non-empty segment marks its
  // first position with its start (the rest hold 0), then a running maximum carries each start over
  // the positions after it (starts grow with position). A search per key took about six dependent
  // global reads each, and most of the kernel's time on 2^17 segments of 0-64 keys (H100, 2026-12-07).
  // The counters serve as the scan's scratch: tile_sort writes them only after its load's barrier.
  const u32 t = LOCAL_ID();
  LOCAL u32* short_starts = tile_short_starts(smem, gather, slots);
  for (u32 p = t; p < n; p += GROUP_SIZE) row_start[SG_PAD(p)] = 0;
  if (short_max != 0u)
    for (u32 w = t; w < (n + 31u) / 32u; w += GROUP_SIZE) short_starts[w] = 0u;
  if (t == 0) *long_flag = 0u;
  BARRIER();
  for (u64 s = lo + t; s < hi; s += GROUP_SIZE) {
    const u64 start = offset_at(offsets, wide, s), length = offset_at(offsets, wide, s + 1) - start;
    const u32 at = (u32)(start - base);
    if (length != 0) row_start[SG_PAD(at)] = (u16)at;
    if (rank_max != 0u && length > rank_max) *long_flag = 1u;  // every writer writes the same word
    if (length != 0 && length <= short_max) ATOMIC_OR_U32(&short_starts[at >> 5], 1u << (at & 31u));
  }
  BARRIER();
  const u32 per = (n + GROUP_SIZE - 1) / GROUP_SIZE;
  const u32 begin = gs_min_u32(n, t * per), end = gs_min_u32(n, begin + per);
  u32 run = 0;
  for (u32 p = begin; p < end; ++p) run = gs_max_u32(run, row_start[SG_PAD(p)]);
  run = group_exclusive_max_u32(run, tile_counters(smem, gather, slots));
  for (u32 p = begin; p < end; ++p) {
    run = gs_max_u32(run, row_start[SG_PAD(p)]);
    row_start[SG_PAD(p)] = (u16)run;
  }
  // (tile_sort's first barrier comes before any row start or the flag is read)
  const u32 last_start = n ? (u32)(offset_at(offsets, wide, hi - 1) - base) : 0u;  // the largest row key
  tile_sort(smem, keys_in, keys_out, values_in, values_out, base, n, 0u, bits_u32(last_start), positions, flip, slots,
            rank_max != 0u ? 1u : 0u, short_max != 0u ? 1u : 0u);
}

#if GS_CUDA
#include "segmented_warp_rows.h"
// CUDA, rows of at most 32 keys: 2^width_log2 lanes per row, a bitonic network in registers.
KERNEL segmented_tiles_warp(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                            GLOBAL value_t* values_out, u64 rows, u32 row_length, u32 width_log2, u32 positions,
                            okey_t flip) {
  warp_rows_sort(keys_in, keys_out, values_in, values_out, rows, row_length, width_log2, positions, flip);
}
#endif
