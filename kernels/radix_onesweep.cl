// LSD radix sort, CUDA fast path: one kernel per digit (onesweep: Adinets & Merrill, "Onesweep: A
// Faster Least Significant Digit Radix Sort for GPUs", 2022; written from the paper for NVRTC). The
// all-digit histogram comes first (radix_histogram, radix_common.h) and stays on the device.
//
// radix_onesweep, one block per tile of TILE = GROUP_SIZE * ITEMS keys, GROUP_SIZE == RADIX:
//  1. the tile id comes from an atomic counter, so every tile's predecessor is already running;
//  2. keys are loaded warp-striped (coalesced); the tile's digit counts are taken first (shared
//     atomics) and published at once in status[tile][digit] (30-bit count | AGGREGATE flag; tile 0
//     publishes INCLUSIVE words that already hold the digits' global offsets from the histogram);
//  3. keys are ranked per warp with ballots (one per digit bit: a hand-made match-any): a key's
//     rank = earlier same-digit keys of its warp (per-warp digit counters in shared memory, items
//     in order, lanes in order), which is input order within the warp's stripe;
//  4. per digit (one thread each): exclusive scan over the warps, then decoupled look-back over the
//     predecessors' status words until an INCLUSIVE one (they had the whole ranking to publish),
//     then this tile's INCLUSIVE word;
//  5. keys (then values) are staged in shared memory in digit order and written out so that each
//     digit's run of the tile goes to consecutive global addresses.
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
#define STATUS_AGGREGATE 0x40000000u
#define STATUS_INCLUSIVE 0x80000000u
#define STATUS_VALUE 0x3FFFFFFFu

// Lanes of this warp whose label equals ours (label < 2^(RADIX_BITS+1)): one ballot per bit, which
// is faster than __match_any_sync (MATCH.ANY) on sm_70..sm_90.
DEVICE_FN u32 radix_match_peers(u32 label) {
  u32 peers = 0xFFFFFFFFu;
#pragma unroll
  for (u32 b = 0; b <= RADIX_BITS; ++b) {
    const u32 bal = __ballot_sync(0xFFFFFFFFu, (label >> b) & 1u);
    peers &= ((label >> b) & 1u) ? bal : ~bal;
  }
  return peers;
}

// Blocks per SM the compiler must leave registers for (keys and ranks live in registers).
#if VALUE_BYTES == 16
#define ONESWEEP_MIN_BLOCKS 2
#elif KEY_BITS == 64 || VALUE_BYTES == 8 || (ITEMS > 16 && (HAS_VALUES || KEY_KIND == 2))
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
  GS_DECLARE_DYNAMIC_LOCAL(u8, stage);  // TILE keys, later TILE values
  __shared__ u32 warp_hist[WARPS][RADIX];
  __shared__ u32 tile_count[RADIX];
  __shared__ u32 tile_excl[RADIX];
  __shared__ u32 global_base[RADIX];  // mod 2^32: global index of the digit's key at tile position s = base + s
  __shared__ u32 warp_sums[WARPS];
  __shared__ u32 s_tile;
  __shared__ u8 stage_digit[TILE];
  const u32 t = threadIdx.x, lane = t & 31u, warp = t >> 5;
  if (t == 0) s_tile = atomicAdd(&tile_counter[sweep], 1u);
  for (u32 i = t; i < WARPS * RADIX; i += GROUP_SIZE) (&warp_hist[0][0])[i] = 0;
  tile_count[t] = 0;
  __syncthreads();
  const u32 tile = s_tile;
  const u64 base = (u64)tile * TILE;
  const u64 stripe = base + (u64)warp * 32u * ITEMS;
  const u32 in_stripe = (u32)gs_min_u64((u64)32u * ITEMS, n > stripe ? n - stripe : 0);

  key_t k[ITEMS];
  u32 pos[ITEMS];  // rank within the warp's same-digit keys, later the key's place in the tile
  if (in_stripe == 32u * ITEMS) {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) k[i] = keys_in[stripe + i * 32u + lane];
  } else {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i)
      if (i * 32u + lane < in_stripe) k[i] = keys_in[stripe + i * 32u + lane];
  }
  // early counts: the tile's histogram first, so its aggregate is published before the ranking
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) atomicAdd(&tile_count[radix_digit(k[i], flip, shift)], 1u);
  __syncthreads();
  const u32 count = tile_count[t];
  volatile u32* my_status = status + (u64)tile * RADIX + t;
  u32 exclusive = 0;  // keys of digit t before this tile, in the whole output
  if (tile == 0) {
    exclusive = radix_block_exclusive_scan((u32)hist[(shift / RADIX_BITS) * RADIX + t], warp_sums);
    *my_status = STATUS_INCLUSIVE | (exclusive + count);
  } else {
    *my_status = STATUS_AGGREGATE | count;
  }
  const u32 excl_digit = radix_block_exclusive_scan(count, warp_sums);
  tile_excl[t] = excl_digit;

  const u32 lanes_below = (1u << lane) - 1u;
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i) {
    const u32 d = i * 32u + lane < in_stripe ? radix_digit(k[i], flip, shift) : RADIX;  // RADIX: past the end
    const u32 peers = radix_match_peers(d);
    const u32 before = d < RADIX ? warp_hist[warp][d] : 0u;
    pos[i] = before + __popc(peers & lanes_below);
    __syncwarp();
    if (d < RADIX && lane == 31u - __clz(peers)) warp_hist[warp][d] = before + __popc(peers);
    __syncwarp();
  }
  __syncthreads();

  // one digit per thread: exclusive over the warps, then the look-back (predecessors have had the
  // whole ranking to publish)
  u32 total = 0;
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) {
    const u32 c = warp_hist[w][t];
    warp_hist[w][t] = total;
    total += c;
  }
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

  key_t* stage_keys = (key_t*)stage;
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i) {
    if (i * 32u + lane < in_stripe) {
      const u32 d = radix_digit(k[i], flip, shift);
      pos[i] += tile_excl[d] + warp_hist[warp][d];
      stage_keys[pos[i]] = k[i];
      stage_digit[pos[i]] = (u8)d;
    }
  }
  __syncthreads();
  const u32 valid = (u32)gs_min_u64((u64)TILE, n - base);
  for (u32 s = t; s < valid; s += GROUP_SIZE) keys_out[(u64)(global_base[stage_digit[s]] + s)] = stage_keys[s];
#if HAS_VALUES
  value_t v[ITEMS];
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) v[i] = values_in[stripe + i * 32u + lane];
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
