// LSD radix sort, CUDA fast path: one kernel per digit (onesweep: Adinets & Merrill, "Onesweep: A
// Faster Least Significant Digit Radix Sort for GPUs", 2022; written from the paper for NVRTC). The
// all-digit histogram comes first (radix_histogram, radix_common.h) and stays on the device.
//
// radix_onesweep, one block per tile of TILE = GROUP_SIZE * ITEMS keys, GROUP_SIZE == RADIX:
//  1. the tile id comes from an atomic counter, so every tile's predecessor is already running;
//  2. keys are loaded warp-striped (coalesced); per-warp digit counts come first (shared atomics) and
//     the tile's counts are published at once in status[tile][digit] (30-bit count | AGGREGATE flag;
//     tile 0 publishes INCLUSIVE words that already hold the digits' global offsets from the histogram);
//  3. a scan over digits and warps turns the per-warp counts into each warp's first tile position
//     per digit; the ranking (ballots per digit bit: a hand-made match-any; the peers' leader adds
//     their number with one shared atomic and shuffles the old value to them) then yields final tile
//     positions, and each key is staged in shared memory at once (CUB's "early counts" ranking);
//  4. values are loaded; per digit (one thread each): decoupled look-back over the predecessors'
//     status words until an INCLUSIVE one (they had the whole ranking to publish), then this tile's
//     INCLUSIVE word;
//  5. the staged keys (then values) are written out so that each digit's run of the tile goes to
//     consecutive global addresses.
// Counts are 30-bit: the host uses this path for n < 2^30 (else radix_passes.cl).
// Specialised by radix_common.h's defines and ITEMS. Under OpenCL this file holds only the histogram.
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 GROUP_SIZE=256 ITEMS=16
#include "radix_common.h"

#if GS_CUDA
#ifndef ITEMS
#error "ITEMS must be defined"
#endif
#if GROUP_SIZE != RADIX
#error "radix_onesweep needs GROUP_SIZE == RADIX"
#endif
#define TILE (GROUP_SIZE * ITEMS)
#define WARPS (GROUP_SIZE / 32)
#if HAS_VALUES && VALUE_BYTES > KEY_BITS / 8
#define STAGE_BYTES VALUE_BYTES
#else
#define STAGE_BYTES (KEY_BITS / 8)
#endif
#define STATUS_AGGREGATE 0x40000000u
#define STATUS_INCLUSIVE 0x80000000u
#define STATUS_VALUE 0x3FFFFFFFu

// Lanes of this warp whose digit equals ours: one ballot per digit bit (a hand-made match-any, which
// is faster than __match_any_sync (MATCH.ANY) on sm_70..sm_90), restricted to the lanes in `valid`
// (a partial stripe's lanes past the end take part in the ballots but match nobody).
DEVICE_FN u32 radix_match_peers(u32 d, u32 valid, u32 is_valid) {
  u32 peers = is_valid ? valid : 0u;
#pragma unroll
  for (u32 b = 0; b < RADIX_BITS; ++b) {
    const u32 bal = __ballot_sync(0xFFFFFFFFu, (d >> b) & 1u);
    peers &= ((d >> b) & 1u) ? bal : ~bal;
  }
  return peers;
}

// Blocks per SM the compiler must leave registers for (keys and ranks live in registers).
#ifdef ONESWEEP_MIN_BLOCKS  // set by the host (tuning)
#elif VALUE_BYTES == 16
#define ONESWEEP_MIN_BLOCKS 2
#elif HAS_VALUES && (KEY_BITS == 64 || ITEMS > 16)
#define ONESWEEP_MIN_BLOCKS 3
#else
#define ONESWEEP_MIN_BLOCKS 4
#endif

// Exclusive prefix sum over the block's GROUP_SIZE threads (all threads must call it).
DEVICE_FN u32 radix_block_exclusive_scan(u32 v, u32* warp_sums) {
  const u32 lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  u32 incl = v;
#pragma unroll
  for (u32 off = 1; off < 32; off <<= 1) {
    const u32 y = __shfl_up_sync(0xFFFFFFFFu, incl, off);
    if (lane >= off) incl += y;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  u32 prefix = 0;
  for (u32 w = 0; w < warp; ++w) prefix += warp_sums[w];
  __syncthreads();
  return prefix + incl - v;
}

// hist: radix_histogram's output, [pass][RADIX]. Tile 0 turns its pass row into the digits' global
// offsets and publishes them inside its INCLUSIVE status words, so every look-back ends with the
// global position of the tile's first key of each digit (no host round trip for offsets).
KERNEL __launch_bounds__(GROUP_SIZE, ONESWEEP_MIN_BLOCKS)
radix_onesweep(const key_t* RESTRICT keys_in, const value_t* RESTRICT values_in, key_t* RESTRICT keys_out,
               value_t* RESTRICT values_out, u64 n, okey_t flip, u32 shift, const u64* RESTRICT hist,
               u32* status, u32* tile_counter, u32 sweep GS_DYNAMIC_LOCAL) {
  // dynamic local memory (the host passes its size: TILE * max(key, value bytes) + WARPS * RADIX * 4
  // + TILE): the staging buffer (TILE keys, later TILE values), then
  // warp_off[w][d]: first the count of warp w's keys of digit d (early counts), then the tile
  // position of warp w's first digit-d key, advanced by the ranking (CUB's "early counts" ranking),
  // then stage_digit[TILE]: the digit of each staged key
  GS_DECLARE_DYNAMIC_LOCAL(u8, stage);
  u32(*warp_off)[RADIX] = (u32(*)[RADIX])(stage + (u64)TILE * STAGE_BYTES);
  u8* stage_digit = stage + (u64)TILE * STAGE_BYTES + WARPS * RADIX * 4u;
  __shared__ u32 global_base[RADIX];  // mod 2^32: global index of the digit's key at tile position s = base + s
  __shared__ u32 warp_sums[WARPS];
  __shared__ u32 s_tile;
  const u32 t = threadIdx.x, lane = t & 31u, warp = t >> 5;
  if (t == 0) s_tile = atomicAdd(&tile_counter[sweep], 1u);
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) warp_off[w][t] = 0;
  __syncthreads();
  const u32 tile = s_tile;
  const u64 base = (u64)tile * TILE;
  const u64 stripe = base + (u64)warp * 32u * ITEMS;
  const u32 in_stripe = (u32)gs_min_u64((u64)32u * ITEMS, n > stripe ? n - stripe : 0);

  key_t k[ITEMS];
  u32 pos[ITEMS];  // the key's place in the tile (digit order, stable)
  if (in_stripe == 32u * ITEMS) {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) k[i] = keys_in[stripe + i * 32u + lane];
  } else {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i)
      if (i * 32u + lane < in_stripe) k[i] = keys_in[stripe + i * 32u + lane];
  }
  // early counts per warp, so the tile's aggregate is published before the ranking
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) atomicAdd(&warp_off[warp][radix_digit(k[i], flip, shift)], 1u);
  __syncthreads();
  u32 wc[WARPS];
  u32 count = 0;
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) {
    wc[w] = warp_off[w][t];
    count += wc[w];
  }
  volatile u32* my_status = status + (u64)tile * RADIX + t;
  u32 exclusive = 0;  // keys of digit t before this tile, in the whole output
  if (tile == 0) {
    exclusive = radix_block_exclusive_scan((u32)hist[(shift / RADIX_BITS) * RADIX + t], warp_sums);
    *my_status = STATUS_INCLUSIVE | (exclusive + count);
  } else {
    *my_status = STATUS_AGGREGATE | count;
  }
  const u32 excl_digit = radix_block_exclusive_scan(count, warp_sums);
  {
    u32 run = excl_digit;
#pragma unroll
    for (u32 w = 0; w < WARPS; ++w) {
      warp_off[w][t] = run;
      run += wc[w];
    }
  }
  __syncthreads();

  // ranking: per item, the lanes with the same digit; their leader (highest lane) advances the
  // warp's digit offset by their number, the others take their place below it (items in order,
  // lanes in order = input order within the warp's stripe)
  const u32 lanes_below = (1u << lane) - 1u;
  key_t* stage_keys = (key_t*)stage;
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 rem = in_stripe > i * 32u ? in_stripe - i * 32u : 0u;
    const u32 valid = rem >= 32u ? 0xFFFFFFFFu : (1u << rem) - 1u;
    const u32 is_valid = lane < rem;
    const u32 d = is_valid ? radix_digit(k[i], flip, shift) : 0u;
    const u32 peers = radix_match_peers(d, valid, is_valid);
    const u32 leader = 31u - __clz(peers);
    u32 before = 0;
    if (is_valid && lane == leader) before = atomicAdd(&warp_off[warp][d], (u32)__popc(peers));
    before = __shfl_sync(0xFFFFFFFFu, before, leader & 31u);
    pos[i] = before + __popc(peers & lanes_below);
    if (is_valid) {  // the rank is final: stage the key (and its digit) in tile order at once
      stage_keys[pos[i]] = k[i];
      stage_digit[pos[i]] = (u8)d;
    }
  }

#if HAS_VALUES
  value_t v[ITEMS];  // loaded now: in flight during the look-back and the key scatter
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) v[i] = values_in[stripe + i * 32u + lane];
#endif

  // one digit per thread: decoupled look-back (predecessors have had the whole ranking to publish)
  if (tile > 0) {
    const volatile u32* pred = status + (u64)(tile - 1) * RADIX + t;
    for (;;) {
      u32 s;
      do {
        s = *pred;
      } while ((s & (STATUS_AGGREGATE | STATUS_INCLUSIVE)) == 0);
      exclusive += s & STATUS_VALUE;
      if (s & STATUS_INCLUSIVE) break;
      pred -= RADIX;
    }
    *my_status = STATUS_INCLUSIVE | (exclusive + count);
  }
  global_base[t] = exclusive - excl_digit;
  __syncthreads();

  const u32 valid = (u32)gs_min_u64((u64)TILE, n - base);
  if (valid == TILE) {
#pragma unroll 4
    for (u32 s = t; s < TILE; s += GROUP_SIZE) keys_out[(u64)(global_base[stage_digit[s]] + s)] = stage_keys[s];
  } else {
    for (u32 s = t; s < valid; s += GROUP_SIZE) keys_out[(u64)(global_base[stage_digit[s]] + s)] = stage_keys[s];
  }
#if HAS_VALUES
  __syncthreads();
  value_t* stage_values = (value_t*)stage;
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) stage_values[pos[i]] = v[i];
  __syncthreads();
  for (u32 s = t; s < valid; s += GROUP_SIZE) values_out[(u64)(global_base[stage_digit[s]] + s)] = stage_values[s];
#endif
}
#endif  // GS_CUDA
