// The phases of one radix_onesweep tile (radix_onesweep.cl), in kernel order: load the keys, count
// and publish, rank and stage, load the values, (look-back: radix_lookback.h), scatter. Each is
// called by every thread of the block; the shared-memory layout is the kernel's. Specialised by the
// kernel file's configuration (TILE, WARPS, STAGE_BYTES, ONESWEEP_FULL_PATH) and the host's switches.
#ifndef GPUSORT_RADIX_ONESWEEP_PHASES_H
#define GPUSORT_RADIX_ONESWEEP_PHASES_H
#include "radix_common.h"
#include "radix_float_flip.h"
#include "radix_packed_pairs.h"
#if ONESWEEP_PACKED_OUT == 2
#include "radix_interleaved_pairs.h"
#endif
#include "radix_warp_rank.h"
#include "radix_block_scan.h"
#include "radix_lookback.h"

// 1. The warp's stripe of keys (packed input: the values too, into v; radix_packed_pairs.h).
DEVICE_FN void onesweep_load_keys(key_t* k, value_t* v, GLOBAL const key_t* keys_in, GLOBAL const value_t* values_in,
                                  u64 n, u64 stripe, u32 in_stripe, u32 lane) {
#if ONESWEEP_PACKED_IN
  radix_packed_load_stripe(k, v, keys_in, values_in, n, stripe, in_stripe, lane);
#else
  if (in_stripe == 32u * ITEMS) {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) k[i] = keys_in[stripe + i * 32u + lane];
  } else {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i)
      if (i * 32u + lane < in_stripe) k[i] = keys_in[stripe + i * 32u + lane];
  }
#endif
}

// 2. Early counts per warp, so the tile's aggregate is published before the ranking; the digits are
// kept packed in registers (dpk, 4 per word), so ordered_key runs once per key and pass. Returns
// thread t's digit: the tile's count, the keys before this tile (known for tile 0 only) and before
// the digit in the tile. warp_off[w][t] then holds the tile position of warp w's first digit-t key.
typedef struct {
  u32 count, exclusive, excl_digit;
} OnesweepCounts;
DEVICE_FN OnesweepCounts onesweep_count_and_publish(const key_t* k, u32* dpk, LOCAL u32 (*warp_off)[RADIX],
                                                    LOCAL u32* warp_sums, GLOBAL u32* status, GLOBAL const u64* hist,
                                                    okey_t flip, u32 shift, u32 tile, u32 in_stripe,
                                                    bool full_count) {
  const u32 t = LOCAL_ID(), lane = t & 31u, warp = t >> 5;
#pragma unroll
  for (u32 q = 0; q < (ITEMS + 3) / 4; ++q) dpk[q] = 0;
  LOCAL u32* my_counts = warp_off[warp];
  // full stripes count without validity tests; each item of a full stripe: its digit d counted by
  // COUNT, then kept (radix_keep_digit)
#define ONESWEEP_COUNT_EACH(DIGIT, COUNT)               \
  _Pragma("unroll") for (u32 i = 0; i < ITEMS; ++i) {   \
    const u32 d = (DIGIT);                              \
    COUNT;                                              \
    radix_keep_digit(dpk, i, d);                        \
  }
#if RADIX_UNIFORM_COUNT
  // sorted or low-entropy input: where the stripe's first item has one digit in every lane, each
  // item whose digit is the same across the warp is counted once (radix_warp_rank.h,
  // RADIX_UNIFORM_COUNT); other stripes pay one shuffle and one vote
#define ONESWEEP_COUNT_FULL(DIGIT)                                                 \
  u32 first_digit;                                                                 \
  {                                                                                \
    const u32 i = 0;                                                               \
    first_digit = (DIGIT);                                                         \
  }                                                                                \
  if (radix_warp_uniform(first_digit)) {                                           \
    ONESWEEP_COUNT_EACH(DIGIT, radix_count_digit_warp(my_counts, d, lane))         \
  } else {                                                                         \
    ONESWEEP_COUNT_EACH(DIGIT, ATOMIC_ADD_U32(&my_counts[d], 1u))                  \
  }
#else
#define ONESWEEP_COUNT_FULL(DIGIT) ONESWEEP_COUNT_EACH(DIGIT, ATOMIC_ADD_U32(&my_counts[d], 1u))
#endif
#define ONESWEEP_COUNT_LOOP(DIGIT)                      \
  if (full_count) {                                     \
    ONESWEEP_COUNT_FULL(DIGIT)                          \
  } else {                                              \
    _Pragma("unroll") for (u32 i = 0; i < ITEMS; ++i)   \
      if (i * 32u + lane < in_stripe) {                 \
        const u32 d = (DIGIT);                          \
        ATOMIC_ADD_U32(&my_counts[d], 1u);              \
        radix_keep_digit(dpk, i, d);                    \
      }                                                 \
  }
#if KEY_KIND == 2
  if (hist[RADIX_PASSES * RADIX] == 0) {  // no -0 or NaN key: digits of the plain sign flip
    ONESWEEP_COUNT_LOOP((u32)(radix_plain_float_key(k[i], flip) >> shift) & RADIX_MASK)
  } else {
    ONESWEEP_COUNT_LOOP(radix_digit(k[i], flip, shift))
  }
#elif KEY_BITS == 32 && KEY_KIND != 2 && RADIX_BITS == 8
  // 32-bit integer keys: the digit is byte shift / 8 of the ordered key (PRMT)
  const u32 digit_sel = 0x4440u | (shift >> 3);
  ONESWEEP_COUNT_LOOP(byte_perm((u32)ordered_key(k[i], flip), 0u, digit_sel))
#else
  ONESWEEP_COUNT_LOOP(radix_digit(k[i], flip, shift))
#endif
#undef ONESWEEP_COUNT_LOOP
#undef ONESWEEP_COUNT_FULL
#undef ONESWEEP_COUNT_EACH
  BARRIER();
  u32 wc[WARPS];
  OnesweepCounts c = {0, 0, 0};
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) {
    wc[w] = warp_off[w][t];
    c.count += wc[w];
  }
  volatile GLOBAL u32* my_status = status + (u64)tile * RADIX + t;
  if (tile == 0) {  // with portions the offsets are added later, in 64 bits
    c.exclusive = ONESWEEP_PORTIONS ? 0u : radix_block_exclusive_scan((u32)hist[(shift / RADIX_BITS) * RADIX + t], warp_sums);
    *my_status = STATUS_INCLUSIVE | (c.exclusive + c.count);
  } else {
    *my_status = STATUS_AGGREGATE | c.count;
  }
  c.excl_digit = radix_block_exclusive_scan(c.count, warp_sums);
  u32 run = c.excl_digit;
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) {
    warp_off[w][t] = run;
    run += wc[w];
  }
  BARRIER();
  return c;
}

// 3. Per item, the lanes with the same digit; their leader (highest lane) advances the warp's digit
// offset by their number, the others take their place below it (items in order, lanes in order =
// input order within the warp's stripe). The rank is final: the key (and its digit, unless the
// scatter recomputes it; and its value, ONESWEEP_VALUES_IN_RANK) is staged in tile order at once.
// Halfway, the look-back snapshot is issued.
DEVICE_FN void onesweep_rank_and_stage(const key_t* k, const value_t* v, const u32* dpk, u32* pos, LOCAL u32* my_counts,
                                       LOCAL key_t* stage_keys, LOCAL value_t* stage_values, LOCAL u8* stage_digit,
                                       LOCAL u32* snap, GLOBAL const u32* status, u32 tile, u32 in_stripe,
                                       bool full_stripe) {
  const u32 t = LOCAL_ID(), lane = t & 31u;
  const u32 lanes_le = 0xFFFFFFFFu >> (31u - lane);
#if ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_STAGE_DIGIT(i, d)
#else
#define ONESWEEP_STAGE_DIGIT(i, d) stage_digit[pos[i]] = (u8)(d);
#endif
#if ONESWEEP_VALUES_IN_RANK
#define ONESWEEP_STAGE_VALUE(i) stage_values[pos[i]] = v[i];
#else
#define ONESWEEP_STAGE_VALUE(i)
#endif
#define ONESWEEP_STAGE(i, d)   \
  stage_keys[pos[i]] = k[i];   \
  ONESWEEP_STAGE_DIGIT(i, d)   \
  ONESWEEP_STAGE_VALUE(i)
#define ONESWEEP_DIGIT(i) radix_kept_digit(dpk, i)
  if (full_stripe) {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) {
      if (i == ITEMS / 2) radix_lookback_snapshot_issue(snap, status, tile, t);
      const u32 d = ONESWEEP_DIGIT(i);
      pos[i] = radix_rank_full(d, my_counts, lanes_le);
      ONESWEEP_STAGE(i, d);
    }
  } else {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) {
      if (i == ITEMS / 2) radix_lookback_snapshot_issue(snap, status, tile, t);
      const u32 rem = in_stripe > i * 32u ? in_stripe - i * 32u : 0u;
      const u32 valid = rem >= 32u ? 0xFFFFFFFFu : (1u << rem) - 1u;
      const u32 is_valid = lane < rem;
      const u32 d = ONESWEEP_DIGIT(i);
      const u32 peers = radix_match_peers(d, valid, is_valid);
      const u32 leader = 31u - warp_clz(peers);
      const u32 rank_le = warp_popcount(peers & lanes_le);
      u32 before = 0;
      if (is_valid && lane == leader) before = ATOMIC_ADD_U32(&my_counts[d], rank_le);
      pos[i] = warp_shuffle(before, leader & 31u) + rank_le - 1u;
      if (is_valid) {
        ONESWEEP_STAGE(i, d);
      }
    }
  }
#undef ONESWEEP_DIGIT
#undef ONESWEEP_STAGE
#undef ONESWEEP_STAGE_DIGIT
#undef ONESWEEP_STAGE_VALUE
}

// 4. Values, now: in flight during the look-back and the key scatter (packed input: staged already,
// ONESWEEP_VALUES_IN_RANK).
DEVICE_FN void onesweep_load_values(value_t* v, GLOBAL const value_t* values_in, u64 stripe, u32 in_stripe, u32 lane) {
#if ONESWEEP_VALUES_IN_RANK
#elif HAS_VALUES
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) v[i] = values_in[stripe + i * 32u + lane];
#endif
}

// 5. The staged keys (and values) to consecutive global addresses per digit run. Pairs of <= 8 bytes
// stage their values beside the keys first (one barrier serves both); wider ones after the keys'
// scatter, in the keys' area (stage_values == stage_keys then).
DEVICE_FN void onesweep_scatter(const value_t* v, const u32* pos, LOCAL key_t* stage_keys, LOCAL value_t* stage_values,
                                const LOCAL u8* stage_digit, const LOCAL gpos_t* global_base, GLOBAL key_t* keys_out,
                                GLOBAL value_t* values_out, u64 n, u64 base, okey_t flip, u32 shift, u32 in_stripe) {
  const u32 t = LOCAL_ID(), lane = t & 31u;
  // the global position of the staged key at tile position s (gpos_t: 64 bits with portions)
#if ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_GLOBAL(s) (global_base[radix_digit(stage_keys[s], flip, shift)] + (s))
#else
#define ONESWEEP_GLOBAL(s) (global_base[stage_digit[s]] + (s))
#endif
#if HAS_VALUES && ONESWEEP_SPLIT_STAGE && !ONESWEEP_VALUES_IN_RANK
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) stage_values[pos[i]] = v[i];
#endif
  BARRIER();
  const u32 valid = (u32)gs_min_u64((u64)TILE, n - base);
#if ONESWEEP_PACKED_OUT
  // one 8-byte store per pair: packed halves (1), or the segments' last pass's interleaved blocks (2,
  // radix_interleaved_pairs.h)
#if ONESWEEP_PACKED_OUT == 2
#define ONESWEEP_PACKED_STORE(e, k, v) radix_interleaved_store((u32*)keys_out, (u32*)values_out, n, (e), (k), (v))
#else
  const u64 half = n / 2u;
#define ONESWEEP_PACKED_STORE(e, k, v) radix_packed_store((u32*)keys_out, (u32*)values_out, half, (e), (k), (v))
#endif
  if (valid == TILE) {
#pragma unroll 4
    for (u32 s = t; s < TILE; s += GROUP_SIZE) ONESWEEP_PACKED_STORE(ONESWEEP_GLOBAL(s), stage_keys[s], stage_values[s]);
  } else {
    for (u32 s = t; s < valid; s += GROUP_SIZE) ONESWEEP_PACKED_STORE(ONESWEEP_GLOBAL(s), stage_keys[s], stage_values[s]);
  }
#undef ONESWEEP_PACKED_STORE
#elif HAS_VALUES && ONESWEEP_SPLIT_STAGE
  // keys in one sweep, then values in a second (a warp's stores stay in one output array: faster than
  // alternating, H200, 4912db5); a full tile keeps the global positions in registers between the sweeps
  if (valid == TILE) {
    gpos_t g[ITEMS];
#pragma unroll
    for (u32 j = 0; j < ITEMS; ++j) {
      const u32 s = t + j * GROUP_SIZE;
      g[j] = ONESWEEP_GLOBAL(s);
      keys_out[g[j]] = stage_keys[s];
    }
#pragma unroll
    for (u32 j = 0; j < ITEMS; ++j) values_out[g[j]] = stage_values[t + j * GROUP_SIZE];
  } else {
    for (u32 s = t; s < valid; s += GROUP_SIZE) keys_out[ONESWEEP_GLOBAL(s)] = stage_keys[s];
    for (u32 s = t; s < valid; s += GROUP_SIZE) values_out[ONESWEEP_GLOBAL(s)] = stage_values[s];
  }
#else
  if (valid == TILE) {
#pragma unroll 4
    for (u32 s = t; s < TILE; s += GROUP_SIZE) keys_out[ONESWEEP_GLOBAL(s)] = stage_keys[s];
  } else {
    for (u32 s = t; s < valid; s += GROUP_SIZE) keys_out[ONESWEEP_GLOBAL(s)] = stage_keys[s];
  }
#endif
#if HAS_VALUES && !ONESWEEP_SPLIT_STAGE
  BARRIER();
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) stage_values[pos[i]] = v[i];
  BARRIER();
  for (u32 s = t; s < valid; s += GROUP_SIZE) values_out[ONESWEEP_GLOBAL(s)] = stage_values[s];
#endif
#undef ONESWEEP_GLOBAL
}

#endif  // GPUSORT_RADIX_ONESWEEP_PHASES_H
