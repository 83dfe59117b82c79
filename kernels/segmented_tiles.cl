// Segmented sorts, the tile bin: short uniform rows sorted whole by one work-group each, several rows
// per work-group, in local memory: every key (and value) is read once and written once.
//
// Work-group g takes rows [g * rows_per_group, ...) (the last group fewer), rows_per_group whole rows
// of row_length keys, n = rows x row_length <= 65536 keys: its tile. The tile is sorted in local
// memory by (row within the tile, ordered key) with LSD digit passes (radix_group_digits.h, shared
// with radix_single_group.cl): first the key's RADIX_PASSES digits of ordered_key(k, flip), then the
// digits of the row index within the tile (none for one row). Each key carries its position in the
// tile (u16) from pass to pass: the row passes read the row from it, and at the end it tells which
// value goes with the key (the values are loaded into local memory once, never moved) or, for an
// argsort, the key's position within its row. LSD passes are stable, the tile starts in row order,
// and rows are never flipped: each row comes out sorted, stable, in the order flip asks for
// (keys.h: descending is the exact reverse, so equal keys keep their input order). A digit that is
// the same for the whole tile skips its scatter (narrow data, few rows).
// No sub-group or warp intrinsics: the same source runs under OpenCL (PoCL) and CUDA (NVRTC).
//
// Out of place or in place: keys_in / values_in may be the output buffers (every group reads its
// whole tile before it writes), and are otherwise only read. positions (VALUE_BYTES 4 or 8 only):
// values_in is not read, each value is its key's position within its row.
//
// Local memory (dynamic, laid out by the host, segmented_tiles.cpp; `slots` a multiple of 16 so
// every sub-array starts 16-byte aligned): values[slots] (pairs that are not positions: the widest
// alignment first), keys[2][slots], counters[SG_PAD(RADIX * GROUP_SIZE)] u32, partial[GROUP_SIZE] u32,
// the skip flag u32 (and padding to 16 bytes), tile positions[2][slots] u16.
//
// Specialised by keys.h's defines, RADIX_BITS (4) and GROUP_SIZE (a multiple of RADIX, power of two);
// the shape is in the arguments, so one program serves every row length.
// NVRTC-CHECK-DEFINES: RADIX_BITS=4 GROUP_SIZE=256
#include "radix_group_digits.h"

// The digit of a pass: the key's digits first, then the row's (the tile position's row).
DEVICE_FN u32 tile_digit(key_t k, u32 pos, okey_t flip, u32 pass, u32 row_length) {
  if (pass < RADIX_PASSES) return radix_digit(k, flip, pass * RADIX_BITS);
  return ((pos / row_length) >> ((pass - RADIX_PASSES) * RADIX_BITS)) & RADIX_MASK;
}

// Words of local memory before the tile positions: the counters, partial sums and skip flag,
// rounded up to 16 bytes (segmented_tiles.cpp lays them out alike).
#define ST_WORDS ((SG_PAD(SG_ENTRIES) + GROUP_SIZE + 1 + 3) / 4 * 4)

KERNEL segmented_tiles_rows(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                            GLOBAL value_t* values_out, u64 rows, u32 row_length, u32 rows_per_group, u32 positions,
                            okey_t flip, u32 slots GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, smem);
  const u32 t = LOCAL_ID();
  const int gather = HAS_VALUES && !positions;  // values loaded, and gathered by position at the end
  LOCAL value_t* vtile = (LOCAL value_t*)smem;
  LOCAL key_t* ksrc = (LOCAL key_t*)(vtile + (gather ? slots : 0u));
  LOCAL key_t* kdst = ksrc + slots;
  LOCAL u32* counters = (LOCAL u32*)(kdst + slots);
  LOCAL u32* partial = counters + SG_PAD(SG_ENTRIES);
  LOCAL u32* skip = partial + GROUP_SIZE;
  LOCAL u16* psrc = (LOCAL u16*)(counters + ST_WORDS);
  LOCAL u16* pdst = psrc + slots;

  const u64 first_row = GROUP_ID() * rows_per_group;
  const u32 tile_rows = (u32)gs_min_u64(rows_per_group, rows - first_row);
  const u32 n = tile_rows * row_length;
  const u64 base = first_row * row_length;
  // Tile positions travel with the keys when something reads them: the row passes or the values.
  const int carry = tile_rows > 1 || HAS_VALUES;

  for (u32 i = t; i < n; i += GROUP_SIZE) {  // striped: coalesced global reads
    ksrc[SG_PAD(i)] = keys_in[base + i];
    if (carry) psrc[SG_PAD(i)] = (u16)i;
#if HAS_VALUES
    if (gather) vtile[SG_PAD(i)] = values_in[base + i];
#endif
  }
  if (t == 0) *skip = 0;
  BARRIER();

  u32 row_bits = 0;  // bits of the largest row index in the tile
  while (row_bits < 32 && ((tile_rows - 1u) >> row_bits) != 0) ++row_bits;
  const u32 passes = row_length > 1 ? RADIX_PASSES + (row_bits + RADIX_BITS - 1) / RADIX_BITS : 0u;
  const u32 per = (n + GROUP_SIZE - 1) / GROUP_SIZE;
  const u32 begin = gs_min_u32(n, t * per);
  const u32 end = gs_min_u32(n, begin + per);
  for (u32 pass = 0; pass < passes; ++pass) {
    group_digits_clear(counters, t);
    for (u32 p = begin; p < end; ++p) {
      const u32 pos = carry ? (u32)psrc[SG_PAD(p)] : 0u;
      counters[SG_PAD(tile_digit(ksrc[SG_PAD(p)], pos, flip, pass, row_length) * GROUP_SIZE + t)] += 1u;
    }
    if (group_digits_scan(counters, partial, skip, n, pass)) continue;  // the tile stays as it is
    for (u32 p = begin; p < end; ++p) {  // stable scatter into the other buffers
      const key_t k = ksrc[SG_PAD(p)];
      const u32 pos = carry ? (u32)psrc[SG_PAD(p)] : 0u;
      const u32 e = SG_PAD(tile_digit(k, pos, flip, pass, row_length) * GROUP_SIZE + t);
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

  for (u32 i = t; i < n; i += GROUP_SIZE) {
    keys_out[base + i] = ksrc[SG_PAD(i)];
#if HAS_VALUES
    const u32 from = psrc[SG_PAD(i)];
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
    if (positions) {
      values_out[base + i] = (value_t)(from % row_length);
      continue;
    }
#endif
    values_out[base + i] = vtile[SG_PAD(from)];
#endif
  }
}
