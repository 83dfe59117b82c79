// CUDA radix sort of small inputs in one launch (radix_single_tile_<threads>_<items>; the host's
// RadixPath::single_tile), built as the program radix_single_tile.cl. Its passes also sort each
// segment of large inputs by the bits below the top 16 (radix_segments.cl).
#ifndef GPUSORT_RADIX_SINGLE_TILE_H
#define GPUSORT_RADIX_SINGLE_TILE_H
#include "radix_common.h"
#include "radix_block_scan.h"
#include "radix_float_flip.h"
#include "radix_warp_rank.h"

// radix_single_tile: one block sorts the whole input (n <= threads x items) in one launch:
// keys (and values) stay in registers and shared memory through every pass; no histogram, fill,
// temporary or look-back (the onesweep path spends most of a few-thousand-key sort in its six
// launches). Each pass ranks like radix_onesweep (per-warp counts, a block scan, the ballot match
// with the leader's write-back), stages keys in digit order and reads them back warp-striped.
// The keys travel as bijective images turned back at the end, so every pass takes its digit as a
// byte of the image: integer keys as ordered_key images, float keys as their plain sign flips. Float
// blocks that hold -0 or NaN (the block checks) take their digits from the ordered_key image instead (radix_canonical_image: -0 and +0 alike, all NaNs alike,
// so such keys stay in input order), a few instructions per key and pass. Items past n are all-ones
// images: digit RADIX - 1 in every pass (in such float blocks by their position), last in the
// input, so they stay after every real key (stable) and every warp ranks full stripes. A pass where
// all keys share a digit is skipped.
// Dynamic local memory (host: single_tile_local_bytes, radix_policy.cpp): TILE + TILE / 32 key slots,
// as many value slots, threads / 32 x RADIX u32 counters.

// Both one-block sorts read the input where it lies (keys_in, values_in: the output buffers themselves in
// place, another pair out of place, so an out-of-place sort costs no copy launch) and write keys and
// values. positions != 0 (argsort; 4- or 8-byte values sorted in place): each value is its key's
// input position, made here instead of read, so an argsort costs no fill launch either.
DEVICE_FN value_t radix_input_value(const value_t* values_in, u32 i, u32 positions) {
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
  return positions ? (value_t)i : values_in[i];
#else
  (void)positions;  // the host makes positions of 4 or 8 bytes only
  return values_in[i];
#endif
}

// The dynamic local memory's areas (host: single_tile_local_bytes). Staging slots: one of padding per
// 32 (position p at p + p / 32).
// Sorted input stages a warp's keys 16 positions apart in some passes: 2 banks for 32 lanes of 4-byte
// keys, 1 for 8-byte keys without the padding, 32 and 16 with it. 16-byte aligned areas: TILE % 128
// == 0 (every shape here and in radix_segments.cl), so the slot count is a multiple of 4.
struct SingleTileLocal {
  key_t* stage_keys;
  value_t* stage_values;
  u32 (*warp_off)[RADIX];
};
template <u32 TILE>
DEVICE_FN SingleTileLocal single_tile_local(u8* smem) {
  constexpr u32 SLOTS = TILE + TILE / 32;
  return {(key_t*)smem, (value_t*)(smem + (u64)SLOTS * (KEY_BITS / 8)),
          (u32(*)[RADIX])(smem + (u64)SLOTS * (KEY_BITS / 8 + VALUE_BYTES))};
}

// The passes over the images in k (and values in v) that sort by bits [0, END_BITS) (KEY_BITS but in
// radix_segments.cl, whose segments share their higher bits); CANON: digits of the canonical image of
// each float key's plain image (blocks with -0 or NaN). RANK_FIRST (radix_segments.cl, the host's
// SegmentPolicy::rank_first): a pass ranks each key among its warp's keys of its digit first (the
// warp counters start at zero, so they end as the warp's digit counts) and keeps that rank, two to a
// register, instead of counting the digits with shared atomics and ranking after the scan: one walk
// over the items with the ballots instead of two walks. Keys alone whose digits are their own bits
// (integer keys, float keys off CANON) then take their ranks in the first pass from a shared atomic on
// their warp's counter, one instruction instead of the ballots. That rank orders
// a warp's keys of one digit arbitrarily, which only the first pass may do: keys of equal low digits
// are ordered by the later passes, and keys equal in every bit cannot be told apart. Padding items
// are ranked like keys but in that atomic pass: skipping the rows wholly past n (warp-uniform tests
// in the item loops) made the segments' sorts slower (H200, 2026-11-28: 2^28 u32 keys 4.31 -> 4.70
// ms; lab/notes/radix-tuning.md).
template <u32 TPB, u32 SINGLE_ITEMS, u32 END_BITS, bool CANON, bool RANK_FIRST>
DEVICE_FN void single_tile_passes(key_t* k, value_t* v, key_t* stage_keys, value_t* stage_values,
                                  u32 (*warp_off)[RADIX], u32* scan_sums, u32 n, okey_t flip) {
  constexpr u32 SINGLE_TILE = TPB * SINGLE_ITEMS, SWARPS = TPB / 32;
  const u32 t = threadIdx.x, lane = t & 31u, warp = t >> 5;
  const u32 stripe = warp * 32u * SINGLE_ITEMS;  // this warp's input positions, item-major
  const u32 lanes_le = 0xFFFFFFFFu >> (31u - lane);
  (void)v, (void)stage_values, (void)flip;
#if KEY_KIND == 2
  // CANON: the padding past n (all ones, in place: stable and last in every pass) keeps digit RADIX - 1
  // by its position, since no plain image canonicalises to all ones in descending order
#define SINGLE_IMAGE(i)                                                                 \
  (!CANON ? (okey_t)k[i]                                                                \
          : stripe + (i) * 32u + lane >= n ? (okey_t)KEY_ALL_ONES : radix_canonical_image((okey_t)k[i], flip))
#else
#define SINGLE_IMAGE(i) ((okey_t)k[i])
#endif
#define SINGLE_DIGIT(i) ((u32)(SINGLE_IMAGE(i) >> shift) & RADIX_MASK)
  // CANON: the pass's digits, found once by the count and kept for the ranking (radix_keep_digit);
  // plain images take theirs again (a shift and a mask)
  u32 dpk[(SINGLE_ITEMS + 3) / 4] = {};
  u32 kept_rank[RANK_FIRST ? (SINGLE_ITEMS + 1) / 2 : 1];  // RANK_FIRST: item i's rank, 16 bits of word i / 2
  (void)kept_rank;
  for (u32 shift = 0; shift < END_BITS; shift += RADIX_BITS) {
    for (u32 i = t; i < SWARPS * RADIX; i += TPB) warp_off[i / RADIX][i % RADIX] = 0;
    __syncthreads();
    u32* my_counts = warp_off[warp];
    // the atomic pass: the padding stays where it is ([n, tile), where the stable passes put it too),
    // uncounted, so that no real key of digit RADIX - 1 lands among it
    const bool atomic_pass = RANK_FIRST && !CANON && !HAS_VALUES && shift == 0;
#pragma unroll
    for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
      const u32 d = SINGLE_DIGIT(i);
      if (CANON) radix_keep_digit(dpk, i, d);
      if (RANK_FIRST) {  // ranks < the tile (<= 9216): 16 bits each
        u32 r = 0;
        if (!atomic_pass)
          r = radix_rank_full(d, my_counts, lanes_le);
        else if (stripe + i * 32u + lane < n)
          r = atomicAdd(&my_counts[d], 1u);
        kept_rank[i / 2] = i % 2 == 0 ? r : kept_rank[i / 2] | (r << 16);
      } else {
        atomicAdd(&my_counts[d], 1u);
      }
    }
    __syncthreads();
    u32 count = 0;  // thread t < RADIX: digit t's keys in the tile
    if (t < RADIX)
      for (u32 w = 0; w < SWARPS; ++w) count += warp_off[w][t];
    // all real keys share a digit (digit RADIX - 1 also holds the padding but in the atomic pass): nothing moves
    if (__syncthreads_or(t < RADIX && (t == RADIX_MASK && !atomic_pass ? count == SINGLE_TILE : count == n))) continue;
    // exclusive scan of the digit counts over the block (threads >= RADIX add zeros)
    u32 run = radix_block_exclusive_scan(count, scan_sums);
    if (t < RADIX) {
      for (u32 w = 0; w < SWARPS; ++w) {  // warp w's first position of digit t
        const u32 c = warp_off[w][t];
        warp_off[w][t] = run;
        run += c;
      }
    }
    __syncthreads();
#pragma unroll
    for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
      const u32 d = CANON ? radix_kept_digit(dpk, i) : SINGLE_DIGIT(i);
      const u32 g = stripe + i * 32u + lane;
      u32 pos = !RANK_FIRST              ? radix_rank_full(d, my_counts, lanes_le)
                : atomic_pass && g >= n ? g
                                        : my_counts[d] + (i % 2 == 0 ? kept_rank[i / 2] & 0xFFFFu : kept_rank[i / 2] >> 16);
      pos += pos >> 5;
      stage_keys[pos] = k[i];
#if HAS_VALUES
      stage_values[pos] = v[i];
#endif
    }
    __syncthreads();
#pragma unroll
    for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
      const u32 slot = stripe + i * 32u + lane + (stripe >> 5) + i;  // position + position / 32
      k[i] = stage_keys[slot];
#if HAS_VALUES
      v[i] = stage_values[slot];
#endif
    }
    // the next pass stages only after two more barriers: these reads are done by then
  }
#undef SINGLE_DIGIT
#undef SINGLE_IMAGE
}

// Sorts the keys [0, n) in k (and their values in v; n <= TPB x SINGLE_ITEMS) by bits [0, END_BITS)
// of their images and writes them to keys (and values). k and v hold the input warp-striped: item i
// of lane l in warp w is key w x 32 x SINGLE_ITEMS + i x 32 + l (the items past n unset). Keys [0,
// lead) are padding the caller placed before the input, whose images sort first (radix_segments.cl's
// interleaved pairs): they are not written.
template <u32 TPB, u32 SINGLE_ITEMS, u32 END_BITS, bool RANK_FIRST>
DEVICE_FN void radix_single_tile_sort_loaded(u8* smem, key_t* k, value_t* v, key_t* keys, value_t* values, u32 n,
                                             okey_t flip, u32 lead = 0) {
  const SingleTileLocal local = single_tile_local<TPB * SINGLE_ITEMS>(smem);
  key_t* stage_keys = local.stage_keys;
  value_t* stage_values = local.stage_values;
  u32(*warp_off)[RADIX] = local.warp_off;
  __shared__ u32 scan_sums[TPB / 32];
  const u32 t = threadIdx.x, lane = t & 31u, warp = t >> 5;
  const u32 stripe = warp * 32u * SINGLE_ITEMS;  // this warp's input positions, item-major
  (void)values;
  // the keys' images, the passes, the keys back
#if KEY_KIND == 2
  u32 odd = 0;  // a key of this thread is -0 or NaN
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i)
    if (stripe + i * 32u + lane < n) odd |= (u32)radix_float_special(k[i]);
  const bool plain = !__syncthreads_or((int)odd);
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i)
    k[i] = stripe + i * 32u + lane < n ? (key_t)radix_plain_float_key(k[i], flip) : (key_t)KEY_ALL_ONES;
  if (plain)
    single_tile_passes<TPB, SINGLE_ITEMS, END_BITS, false, RANK_FIRST>(k, v, stage_keys, stage_values, warp_off, scan_sums, n, flip);
  else
    single_tile_passes<TPB, SINGLE_ITEMS, END_BITS, true, RANK_FIRST>(k, v, stage_keys, stage_values, warp_off, scan_sums, n, flip);
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i) k[i] = radix_plain_float_key_inverse((okey_t)k[i], flip);
#else
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i)
    k[i] = stripe + i * 32u + lane < n ? (key_t)ordered_key(k[i], flip) : (key_t)KEY_ALL_ONES;
  single_tile_passes<TPB, SINGLE_ITEMS, END_BITS, false, RANK_FIRST>(k, v, stage_keys, stage_values, warp_off, scan_sums, n, flip);
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i) k[i] = radix_integer_key((okey_t)k[i], flip);
#endif
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
    const u32 g = stripe + i * 32u + lane;
    if (g >= lead && g < n) {
      keys[g] = k[i];
#if HAS_VALUES
      values[g] = v[i];
#endif
    }
  }
}

// Sorts keys [0, n) (n <= TPB x SINGLE_ITEMS) by bits [0, END_BITS) of their images.
template <u32 TPB, u32 SINGLE_ITEMS, u32 END_BITS, bool RANK_FIRST = false>
DEVICE_FN void radix_single_tile_body(u8* smem, const key_t* keys_in, const value_t* values_in, key_t* keys,
                                      value_t* values, u32 n, okey_t flip, u32 positions) {
  const u32 lane = threadIdx.x & 31u, stripe = (threadIdx.x >> 5) * 32u * SINGLE_ITEMS;
  key_t k[SINGLE_ITEMS];
  value_t v[SINGLE_ITEMS];  // unused without values
  (void)values_in, (void)positions;
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
    const u32 g = stripe + i * 32u + lane;
    if (g < n) {
      k[i] = keys_in[g];
#if HAS_VALUES
      v[i] = radix_input_value(values_in, g, positions);
#endif
    }
  }
  radix_single_tile_sort_loaded<TPB, SINGLE_ITEMS, END_BITS, RANK_FIRST>(smem, k, v, keys, values, n, flip);
}

#endif  // GPUSORT_RADIX_SINGLE_TILE_H
