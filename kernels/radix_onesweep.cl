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
//     per digit; the ranking (ballots per digit bit: a hand-made match-any; every peer reads the
//     digit's offset and the leader writes it back advanced by their number) then yields final tile
//     positions, and each key is staged in shared memory at once (CUB's "early counts" ranking).
//     Full stripes (all tiles but the last) count and rank without validity tests: the ranking is
//     ALU-bound, so its instructions per key set the pass time (docs/PERFORMANCE.md, sixth round);
//  4. values are loaded; per digit (one thread each): decoupled look-back over the predecessors'
//     status words until an INCLUSIVE one (they had the whole ranking to publish), then this tile's
//     INCLUSIVE word;
//  5. the staged keys (then values) are written out so that each digit's run of the tile goes to
//     consecutive global addresses.
// Counts are 30-bit: the host uses this path for n < 2^30 (else radix_passes.cl).
// Specialised by radix_common.h's defines and ITEMS. Under OpenCL this file holds only the histogram.
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 GROUP_SIZE=256 ITEMS=16 RADIX_HIST_LANES=1 ONESWEEP_SPLIT_STAGE=1 VALUE_BYTES=4 RADIX_FLOAT_FLAG=1 ONESWEEP_RECOMPUTE_DIGIT=1
#include "radix_common.h"

#if GS_CUDA
#ifndef ITEMS
#error "ITEMS must be defined"
#endif
#ifndef RADIX_HIST_LANES
#define RADIX_HIST_LANES 0
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
// ONESWEEP_SPLIT_STAGE (host): values get their own staging area after the keys' (TILE x (key +
// value bytes)), staged before the scatter barrier; 0: values reuse the keys' area after a second
// barrier (TILE x max(key, value bytes)).
#ifndef ONESWEEP_SPLIT_STAGE
#define ONESWEEP_SPLIT_STAGE 0
#endif
#if ONESWEEP_SPLIT_STAGE
#undef STAGE_BYTES
#define STAGE_BYTES (KEY_BITS / 8 + VALUE_BYTES)
#endif
// RADIX_FLOAT_FLAG (host, float keys, lane histogram): radix_histogram_lanes sets
// hist[RADIX_PASSES * RADIX] when some key is -0 or NaN (the only keys where ordered_key differs from
// the plain sign flip k ^ ((signed)k >> (bits - 1) | sign)); without such keys the passes compute
// their digits by the plain flip, a few instructions per key less. The host zeroes that word.
#ifndef RADIX_FLOAT_FLAG
#define RADIX_FLOAT_FLAG 0
#endif
#if RADIX_FLOAT_FLAG && KEY_KIND != 2
#undef RADIX_FLOAT_FLAG
#define RADIX_FLOAT_FLAG 0
#endif
#if RADIX_FLOAT_FLAG
DEVICE_FN okey_t radix_plain_float_key(key_t k, okey_t flip) {
#if KEY_BITS == 32
  const okey_t neg = (okey_t)((i32)k >> 31);
#else
  const okey_t neg = (okey_t)((i64)k >> 63);
#endif
  return (okey_t)k ^ (neg | (okey_t)KEY_SIGN_BIT) ^ flip;
}
// its inverse (the plain flip is a bijection): the sign bit of o ^ flip says the key's sign
DEVICE_FN key_t radix_plain_float_key_inverse(okey_t o, okey_t flip) {
  const okey_t x = o ^ flip;
#if KEY_BITS == 32
  const okey_t was_positive = (okey_t)((i32)x >> 31);
#else
  const okey_t was_positive = (okey_t)((i64)x >> 63);
#endif
  return (key_t)(x ^ (~was_positive | (okey_t)KEY_SIGN_BIT));
}
#endif
// 1: the scatter takes each staged key's digit from the key (integer keys: 2-3 ALU instructions)
// instead of a staged digit byte (one shared store and one shared load less per key: the pairs pass
// is shared-memory-throttled). Needs the staged keys at scatter time: keys only or values staged
// beside them.
#ifndef ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_RECOMPUTE_DIGIT 0
#endif
#if ONESWEEP_RECOMPUTE_DIGIT && (KEY_KIND == 2 || (HAS_VALUES && !ONESWEEP_SPLIT_STAGE))
#undef ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_RECOMPUTE_DIGIT 0
#endif
// 1: full stripes count and rank without validity tests (0: one generic path). H200, 2^28: u64 keys
// 14.2 ms with it, 16.1 without; u64/u64 pairs (values staged after the keys' scatter) 27.3 with it,
// 26.0 without (not understood: same registers, no spills), so that layout keeps the generic path.
#ifndef ONESWEEP_FULL_PATH
#if HAS_VALUES && !ONESWEEP_SPLIT_STAGE
#define ONESWEEP_FULL_PATH 0
#else
#define ONESWEEP_FULL_PATH 1
#endif
#endif
// predecessors' status words the look-back reads at once (tuning, GPUSORT_RADIX_DEFINES)
#ifndef ONESWEEP_LOOKBACK_WINDOW
#define ONESWEEP_LOOKBACK_WINDOW 1
#endif
// ONESWEEP_LOOKBACK_SNAPSHOT = W > 0 (host): halfway through the ranking each thread copies its
// digit's status words of the W predecessors into shared memory with cp.async (no registers held);
// after the ranking the look-back sums the published ones from there and reads live only beyond
// them. Nsight Compute (H200, 2^28) put 15-19% of the pass's stall samples on the live walk, ~5-7
// dependent global round trips per tile; only 64-bit keys gained (docs/PERFORMANCE.md, seventh
// round). Words copied mid-ranking are final once published (counts never change), so a stale
// copy (not yet published) only means "read on live".
#ifndef ONESWEEP_LOOKBACK_SNAPSHOT
#define ONESWEEP_LOOKBACK_SNAPSHOT 0
#endif
// ONESWEEP_PACKED_IN / ONESWEEP_PACKED_OUT (host; 4-byte keys with 4-byte values, staged apart):
// the pass reads / writes the pairs packed, key in the low word of one 8-byte element, so that the
// passes between the first and the last move one 8-byte word per pair (one load and one store
// instruction instead of two: a 64-bit key pass moves the same bytes as a u32/u32 pass in 1.57 ms
// instead of 1.78 on the H200). A packed array lives in the same buffer pair (K, V) of 4n bytes each
// as the unpacked one: radix_packed_key_word / radix_packed_store say where element e is.
#ifndef ONESWEEP_PACKED_IN
#define ONESWEEP_PACKED_IN 0
#endif
#ifndef ONESWEEP_PACKED_OUT
#define ONESWEEP_PACKED_OUT 0
#endif
#if (ONESWEEP_PACKED_IN || ONESWEEP_PACKED_OUT) && !(HAS_VALUES && ONESWEEP_SPLIT_STAGE && KEY_BITS == 32 && VALUE_BYTES == 4)
#error "packed pairs are 4-byte keys with 4-byte values staged apart"
#endif
// ONESWEEP_PACKED_BATCH: pairs a packed-input pass loads at a time per thread. H200, u32/u32 2^28
// (device run 54): 8 -> 7.27 ms, 16 -> 7.19, 32 (all at once; ptxas spills 72 bytes) -> 7.51; 4-byte
// key loads with 4-byte cp.async copies of the values instead: 8.17 (unpacked: 7.61-7.64).
#ifndef ONESWEEP_PACKED_BATCH
#define ONESWEEP_PACKED_BATCH 16
#endif
#if ONESWEEP_PACKED_IN || ONESWEEP_PACKED_OUT
// Packed element e of n in the buffers K and V (4n bytes each, 8-byte aligned): e < h = n / 2 in K
// as 8-byte words, h <= e < 2h in V, and for odd n the last element unpacked in the last 4 bytes of
// K (key) and V (value), which no 8-byte word covers. radix_packed_key_word: the key's 4-byte word
// (the value's is the next word for e < 2h, V + e for the odd last pair).
DEVICE_FN const u32* radix_packed_key_word(const u32* K, const u32* V, u64 h, u64 e) {
  return e < h ? K + 2u * e : e < 2u * h ? V + 2u * (e - h) : K + e;
}
DEVICE_FN void radix_packed_store(u32* K, u32* V, u64 h, u64 e, u32 k, u32 v) {
  if (e < 2u * h) {
    u64* dst = e < h ? (u64*)K + e : (u64*)V + (e - h);
    *dst = (u64)k | ((u64)v << 32);
  } else {
    K[e] = k;
    V[e] = v;
  }
}
#endif
#define STATUS_AGGREGATE 0x40000000u
#define STATUS_INCLUSIVE 0x80000000u
#define STATUS_VALUE 0x3FFFFFFFu

// Lanes of a full warp (every lane holds a key) whose digit equals ours: one ballot per digit bit (a
// hand-made match-any). The ranking is ALU-bound (Nsight Compute, H200, 2026-11-21), so the
// instructions per bit matter; measured forms (docs/PERFORMANCE.md, sixth round): MATCH.ANY 9.35 ms
// for 2^28 u32 keys against 4.90; the partial form below with every lane valid ~7 SASS instructions
// per bit; sign tests of the shifted digit 5; bit tests against masks in constant memory 4 (this one);
// bit tests against immediates ~3, because ptxas derives 7 predicates at once (R2P), but ptxas 13.0
// then fails in most configurations ("Register allocation failed with register count of '7'").
#if RADIX_BITS > 8
#error "radix_bit_mask holds 8 bits"
#endif
__constant__ u32 radix_bit_mask[8] = {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u};
DEVICE_FN u32 radix_match_peers_full(u32 d) {
  u32 peers = 0xFFFFFFFFu;
#pragma unroll
  for (u32 b = 0; b < RADIX_BITS; ++b) {
    const bool bit = (d & radix_bit_mask[b]) != 0u;  // masks opaque to ptxas: no R2P
    const u32 bal = __ballot_sync(0xFFFFFFFFu, bit);
    peers &= bit ? bal : ~bal;
  }
  return peers;
}
// A full warp's key of digit d: its place among the warp's keys of that digit so far. counts[d] is
// the warp's next position for digit d; every peer reads it (one broadcast), the leader (highest
// peer) writes it back advanced by the peers' number, and __syncwarp orders that store before the
// next item's reads (no atomic, no shuffle, no branch). lanes_le: this lane and the ones below it.
DEVICE_FN u32 radix_rank_full(u32 d, u32* counts, u32 lanes_le) {
  const u32 peers = radix_match_peers_full(d);
  const u32 rank_le = __popc(peers & lanes_le);  // the leader's (highest peer) is the peers' number
  const u32 before = counts[d];
  if ((peers & ~lanes_le) == 0u) counts[d] = before + rank_le;
  __syncwarp();
  return before + rank_le - 1u;
}
// The same for a partial stripe: restricted to the lanes in `valid` (lanes past the end take part in
// the ballots but match nobody).
DEVICE_FN u32 radix_match_peers(u32 d, u32 valid, u32 is_valid) {
  u32 peers = is_valid ? valid : 0u;
#pragma unroll
  for (u32 b = 0; b < RADIX_BITS; ++b) {
    const u32 bal = __ballot_sync(0xFFFFFFFFu, (d >> b) & 1u);
    peers &= ((d >> b) & 1u) ? bal : ~bal;
  }
  return peers;
}

// All-digit histogram, CUDA version (the host defines RADIX_HIST_LANES=1): 16-byte loads, four in
// flight per thread, and lane-private counters so that a warp's shared atomics never collide in a
// bank (the scalar kernel's random bins cost ~3.5-way bank conflicts per atomic). Counters are u16
// halves of u32 words: word (pass, d / 2, copy) with copy = lane % HL_COPIES (32, or 16 for more than
// four passes: 64 KiB of dynamic local memory either way). The host keeps a span below 2^19 keys, so
// a copy (>= 16 of them) counts < 2^15 + 16 keys (no u16 overflow).
#if RADIX_HIST_LANES
#if RADIX_BITS != 8
#error "radix_histogram_lanes packs 8-bit digits"
#endif
#ifdef RADIX_HIST_COPIES  // host: 32 up to four passes, 16 beyond
#define HL_COPIES ((u32)RADIX_HIST_COPIES)
#else
#define HL_COPIES (RADIX_PASSES <= 4 ? 32u : 16u)
#endif
#define HL_WORDS (RADIX / 2u * HL_COPIES)  // per pass
#define HL_KPV (16 / (KEY_BITS / 8))       // keys per 16-byte load
DEVICE_FN void radix_hist_lane_count(u32* c, u32 lc, key_t k, okey_t flip, u32* odd) {
  const okey_t o = ordered_key(k, flip);
#if RADIX_FLOAT_FLAG && RADIX_FLOAT_FLAG_DIRECT  // tuning: the two cases tested directly (NaN, -0)
  *odd |= (u32)(((okey_t)k & ~(okey_t)KEY_SIGN_BIT) > (okey_t)KEY_EXP_MASK) | (u32)((okey_t)k == (okey_t)KEY_SIGN_BIT);
#elif RADIX_FLOAT_FLAG
  *odd |= (u32)(o != radix_plain_float_key(k, flip));
#endif
#pragma unroll
  for (u32 p = 0; p < RADIX_PASSES; ++p) {
    const u32 d = (u32)(o >> (p * RADIX_BITS)) & RADIX_MASK;
    atomicAdd(&c[p * HL_WORDS + (d >> 1) * HL_COPIES + lc], 1u << ((d & 1u) * 16u));
  }
}
KERNEL __launch_bounds__(GROUP_SIZE)
radix_histogram_lanes(const key_t* RESTRICT keys, u64 n, okey_t flip, u64 span, u64* RESTRICT hist GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u32, c);
  const u32 t = threadIdx.x, lc = t & (HL_COPIES - 1u);
  for (u32 i = t; i < RADIX_PASSES * HL_WORDS; i += GROUP_SIZE) c[i] = 0;
  __syncthreads();
  const u64 begin = (u64)blockIdx.x * span;
  const u64 end = gs_min_u64(n, begin + span);
  u64 vbegin = (begin + HL_KPV - 1) / HL_KPV, vend = end / HL_KPV;
  if ((((u64)keys) & 15u) != 0 || vend < vbegin) vend = vbegin;  // unaligned: scalar loop only
  typedef union {
    uint4 v;
    key_t k[HL_KPV];
  } vec_t;
  const uint4* kv = (const uint4*)keys;
  u32 odd = 0;  // RADIX_FLOAT_FLAG: a key of this thread is -0 or NaN
  for (u64 i = vbegin + t; i < vend; i += 4u * GROUP_SIZE) {
    vec_t x[4];
#pragma unroll
    for (u32 j = 0; j < 4; ++j)
      if (i + j * GROUP_SIZE < vend) x[j].v = kv[i + j * GROUP_SIZE];
#pragma unroll
    for (u32 j = 0; j < 4; ++j)
      if (i + j * GROUP_SIZE < vend) {
#pragma unroll
        for (u32 q = 0; q < HL_KPV; ++q) radix_hist_lane_count(c, lc, x[j].k[q], flip, &odd);
      }
  }
  // keys outside the whole vectors: the span's unaligned head and tail
  for (u64 i = begin + t; i < gs_min_u64(end, vbegin * HL_KPV); i += GROUP_SIZE) radix_hist_lane_count(c, lc, keys[i], flip, &odd);
  for (u64 i = gs_max_u64(begin, vend * HL_KPV) + t; i < end; i += GROUP_SIZE) radix_hist_lane_count(c, lc, keys[i], flip, &odd);
#if RADIX_FLOAT_FLAG
  if (__syncthreads_or((int)odd) && t == 0) atomicAdd((unsigned long long*)&hist[RADIX_PASSES * RADIX], 1ull);
#else
  __syncthreads();
#endif
  for (u32 i = t; i < RADIX_PASSES * RADIX; i += GROUP_SIZE) {
    const u32 p = i / RADIX, d = i % RADIX;
    const u32* row = c + p * HL_WORDS + (d >> 1) * HL_COPIES;
    u32 sum = 0;
    for (u32 j = 0; j < HL_COPIES; ++j) sum += (row[(j + d) & (HL_COPIES - 1u)] >> ((d & 1u) * 16u)) & 0xFFFFu;
    if (sum != 0) atomicAdd((unsigned long long*)&hist[i], (unsigned long long)sum);
  }
}
#endif

// Blocks per SM the compiler must leave registers for (keys and ranks live in registers).
#ifdef ONESWEEP_MIN_BLOCKS  // set by the host (tuning)
#elif VALUE_BYTES == 16 || (HAS_VALUES && !ONESWEEP_SPLIT_STAGE && ITEMS > 16)
#define ONESWEEP_MIN_BLOCKS 2  // values staged after the keys: 24 items at up to 128 registers
#elif HAS_VALUES && (KEY_BITS == 64 || ITEMS > 16)
#define ONESWEEP_MIN_BLOCKS 3
#else
#define ONESWEEP_MIN_BLOCKS 4
#endif

// Exclusive prefix sum over the block's threads (all threads must call it; warp_sums holds one
// word per warp). It ends with a barrier, so warp_sums may be used again at once.
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

// radix_single_tile: one block sorts the whole input (n <= threads x items) in one launch:
// keys (and values) stay in registers and shared memory through every pass; no histogram, fill,
// temporary or look-back (the onesweep path spends most of a few-thousand-key sort in its six
// launches). Each pass ranks like radix_onesweep (per-warp counts, a block scan, the ballot match
// with the leader's write-back), stages keys in digit order and reads them back warp-striped.
// Items past n take digit RADIX - 1 in every pass: they come last in the input and stay after every
// real key (stable), so every warp ranks full stripes. A pass where all keys share a digit is skipped.
// Dynamic local memory (host: single_tile_local_bytes): TILE keys, TILE values, threads / 32 x RADIX
// u32 counters.
template <u32 TPB, u32 SINGLE_ITEMS>
DEVICE_FN void radix_single_tile_body(u8* smem, key_t* keys, value_t* values, u32 n, okey_t flip) {
  constexpr u32 SINGLE_TILE = TPB * SINGLE_ITEMS, SWARPS = TPB / 32;
  key_t* stage_keys = (key_t*)smem;
  value_t* stage_values = (value_t*)(smem + (u64)SINGLE_TILE * (KEY_BITS / 8));  // 16-byte aligned: TILE % 16 == 0
  u32(*warp_off)[RADIX] = (u32(*)[RADIX])(smem + (u64)SINGLE_TILE * (KEY_BITS / 8 + VALUE_BYTES));
  __shared__ u32 scan_sums[SWARPS];
  const u32 t = threadIdx.x, lane = t & 31u, warp = t >> 5;
  const u32 stripe = warp * 32u * SINGLE_ITEMS;  // this warp's input positions, item-major
  const u32 lanes_le = 0xFFFFFFFFu >> (31u - lane);
  key_t k[SINGLE_ITEMS];
#if HAS_VALUES
  value_t v[SINGLE_ITEMS];
#endif
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
    const u32 g = stripe + i * 32u + lane;
    if (g < n) {
      k[i] = keys[g];
#if HAS_VALUES
      v[i] = values[g];
#endif
    }
  }
#if RADIX_FLOAT_FLAG
  // float keys without -0 and NaN (the block checks them once): digits of the plain sign flip (as the
  // onesweep pass does), which for these keys equals ordered_key
  u32 odd = 0;
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i)
    if (stripe + i * 32u + lane < n) odd |= (u32)(ordered_key(k[i], flip) != radix_plain_float_key(k[i], flip));
  const bool plain = !__syncthreads_or((int)odd);
  // then the keys travel as their plain-flip images (each pass's digit is a shift, as for unsigned
  // keys) and are turned back before the store
  if (plain) {
#pragma unroll
    for (u32 i = 0; i < SINGLE_ITEMS; ++i) k[i] = (key_t)radix_plain_float_key(k[i], flip);
  }
#define SINGLE_KEY_DIGIT(i) (plain ? (u32)((okey_t)k[i] >> shift) & RADIX_MASK : radix_digit(k[i], flip, shift))
#else
#define SINGLE_KEY_DIGIT(i) radix_digit(k[i], flip, shift)
#endif
#define SINGLE_DIGIT(i) (stripe + (i) * 32u + lane < n ? SINGLE_KEY_DIGIT(i) : RADIX_MASK)
  for (u32 shift = 0; shift < KEY_BITS; shift += RADIX_BITS) {
    for (u32 i = t; i < SWARPS * RADIX; i += TPB) warp_off[i / RADIX][i % RADIX] = 0;
    __syncthreads();
    u32* my_counts = warp_off[warp];
#pragma unroll
    for (u32 i = 0; i < SINGLE_ITEMS; ++i) atomicAdd(&my_counts[SINGLE_DIGIT(i)], 1u);
    __syncthreads();
    u32 count = 0;  // thread t < RADIX: digit t's keys in the tile
    if (t < RADIX)
      for (u32 w = 0; w < SWARPS; ++w) count += warp_off[w][t];
    // all real keys share a digit (digit RADIX - 1 also holds the padding): nothing moves
    if (__syncthreads_or(t < RADIX && (t == RADIX_MASK ? count == SINGLE_TILE : count == n))) continue;
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
      const u32 pos = radix_rank_full(SINGLE_DIGIT(i), my_counts, lanes_le);
      stage_keys[pos] = k[i];
#if HAS_VALUES
      stage_values[pos] = v[i];
#endif
    }
    __syncthreads();
#pragma unroll
    for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
      k[i] = stage_keys[stripe + i * 32u + lane];
#if HAS_VALUES
      v[i] = stage_values[stripe + i * 32u + lane];
#endif
    }
    // the next pass stages only after two more barriers: these reads are done by then
  }
#undef SINGLE_DIGIT
#undef SINGLE_KEY_DIGIT
#if RADIX_FLOAT_FLAG
  if (plain) {
#pragma unroll
    for (u32 i = 0; i < SINGLE_ITEMS; ++i) k[i] = radix_plain_float_key_inverse((okey_t)k[i], flip);
  }
#endif
#pragma unroll
  for (u32 i = 0; i < SINGLE_ITEMS; ++i) {
    const u32 g = stripe + i * 32u + lane;
    if (g < n) {
      keys[g] = k[i];
#if HAS_VALUES
      values[g] = v[i];
#endif
    }
  }
}
// radix_single_tile_<threads>_<items>: the host takes the smallest tile that holds n (the work is
// per tile; more threads hide more latency in the one block). A thread holds its items' keys and
// values in registers: shapes are left out beyond 32 (512 threads) or 16 (1024 threads) registers of
// them (radix_sort.cpp, single_tile_shape, applies the same rule).
#define GS_SINGLE_TILE_KERNEL(TPB, IT)                                                                     \
  KERNEL __launch_bounds__(TPB) radix_single_tile_##TPB##_##IT(key_t* keys, value_t* values, u32 n,         \
                                                               okey_t flip GS_DYNAMIC_LOCAL) {              \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                    \
    radix_single_tile_body<TPB, IT>(smem, keys, values, n, flip);                                          \
  }
#define SINGLE_KV_REGS ((KEY_BITS / 8 + 3) / 4 + (VALUE_BYTES + 3) / 4)
GS_SINGLE_TILE_KERNEL(256, 4)
#if 4 * SINGLE_KV_REGS <= 32
GS_SINGLE_TILE_KERNEL(512, 4)
#endif
#if 8 * SINGLE_KV_REGS <= 32
GS_SINGLE_TILE_KERNEL(512, 8)
#endif
#if 8 * SINGLE_KV_REGS <= 16
GS_SINGLE_TILE_KERNEL(1024, 8)
#endif
#if 16 * SINGLE_KV_REGS <= 16
GS_SINGLE_TILE_KERNEL(1024, 16)
#endif
#undef GS_SINGLE_TILE_KERNEL

// hist: radix_histogram's output, [pass][RADIX]. Tile 0 turns its pass row into the digits' global
// offsets and publishes them inside its INCLUSIVE status words, so every look-back ends with the
// global position of the tile's first key of each digit (no host round trip for offsets).
KERNEL __launch_bounds__(GROUP_SIZE, ONESWEEP_MIN_BLOCKS)
radix_onesweep(const key_t* RESTRICT keys_in, const value_t* RESTRICT values_in, key_t* RESTRICT keys_out,
               value_t* RESTRICT values_out, u64 n, okey_t flip, u32 shift, const u64* RESTRICT hist,
               u32* status, u32* status_next, u32* tile_counter, u32 sweep GS_DYNAMIC_LOCAL) {
  // dynamic local memory (the host passes its size: TILE * max(key, value bytes) + WARPS * RADIX * 4
  // + TILE): the staging buffer (TILE keys, later TILE values), then
  // warp_off[w][d]: first the count of warp w's keys of digit d (early counts), then the tile
  // position of warp w's first digit-d key, advanced by the ranking (CUB's "early counts" ranking),
  // then stage_digit[TILE]: the digit of each staged key
  GS_DECLARE_DYNAMIC_LOCAL(u8, stage);
  u32(*warp_off)[RADIX] = (u32(*)[RADIX])(stage + (u64)TILE * STAGE_BYTES);
  u8* stage_digit = stage + (u64)TILE * STAGE_BYTES + WARPS * RADIX * 4u;
#if ONESWEEP_LOOKBACK_SNAPSHOT
  // snap[j][d]: predecessor tile - 1 - j's status word of digit d, copied mid-ranking, in its own
  // area after the staged digits (the host adds 16 + W x RADIX x 4 bytes; the value staging area
  // is free then too, but other threads would stage values over words not yet read)
  u32* snap = (u32*)(stage + (((u64)TILE * STAGE_BYTES + WARPS * RADIX * 4u + (ONESWEEP_RECOMPUTE_DIGIT ? 0u : TILE) + 15u) & ~(u64)15u));
#endif
  __shared__ u32 global_base[RADIX];  // mod 2^32: global index of the digit's key at tile position s = base + s
  __shared__ u32 warp_sums[WARPS];
  __shared__ u32 s_tile;
  const u32 t = threadIdx.x, lane = t & 31u, warp = t >> 5;
  if (t == 0) s_tile = atomicAdd(&tile_counter[sweep], 1u);
#pragma unroll
  for (u32 w = 0; w < WARPS; ++w) warp_off[w][t] = 0;
  __syncthreads();
  const u32 tile = s_tile;
  // the next pass's status words (the other buffer of a ping-pong pair; the previous pass, which used
  // it, has finished) are cleared here, so no pass needs a separate reset; == status: host resets
  if (status_next != status) status_next[(u64)tile * RADIX + t] = 0;
  const u64 base = (u64)tile * TILE;
  const u64 stripe = base + (u64)warp * 32u * ITEMS;
  const u32 in_stripe = (u32)gs_min_u64((u64)32u * ITEMS, n > stripe ? n - stripe : 0);
  const bool full_stripe = ONESWEEP_FULL_PATH && in_stripe == 32u * ITEMS;  // counts, ranking

  key_t k[ITEMS];
  u32 pos[ITEMS];  // the key's place in the tile (digit order, stable)
#if ONESWEEP_PACKED_IN
  // keys and values arrive together: the values wait in their staging area, in load order, until the
  // ranking is done (all 32 values in registers too would spill at 80 registers). 8-byte loads,
  // ONESWEEP_PACKED_BATCH items at a time: 2 registers each while in flight.
  value_t* stage_values_loaded = (value_t*)(stage + (u64)TILE * (KEY_BITS / 8)) + warp * 32u * ITEMS + lane;
  {
    const u64 half = n / 2u, stripe_end = stripe + in_stripe;
    if (stripe_end <= half || (stripe >= half && stripe_end <= 2u * half)) {  // within one buffer
      const u64* eb = stripe < half ? (const u64*)keys_in + stripe : (const u64*)values_in + (stripe - half);
#pragma unroll
      for (u32 b = 0; b < ITEMS; b += ONESWEEP_PACKED_BATCH) {
        u64 e[ONESWEEP_PACKED_BATCH];
#pragma unroll
        for (u32 j = 0; j < ONESWEEP_PACKED_BATCH; ++j)
          if (b + j < ITEMS && (b + j) * 32u + lane < in_stripe) e[j] = eb[(b + j) * 32u + lane];
#pragma unroll
        for (u32 j = 0; j < ONESWEEP_PACKED_BATCH; ++j)
          if (b + j < ITEMS && (b + j) * 32u + lane < in_stripe) {
            k[b + j] = (key_t)(u32)e[j];
            stage_values_loaded[(b + j) * 32u] = (value_t)(u32)(e[j] >> 32);
          }
      }
    } else {
      // the stripe that crosses from K to V, or holds the odd last pair (one or two per pass): key
      // words loaded, value words copied by cp.async (this form keeps the hot path's registers: a
      // batched 8-byte form here cost 0.27 ms at 2^28, device run 55)
#pragma unroll
      for (u32 i = 0; i < ITEMS; ++i)
        if (i * 32u + lane < in_stripe) {
          const u64 e = stripe + i * 32u + lane;
          const u32* kw = radix_packed_key_word((const u32*)keys_in, (const u32*)values_in, half, e);
          const u32* vw = e < 2u * half ? kw + 1 : (const u32*)values_in + e;
          k[i] = (key_t)*kw;
          const u32 dst = (u32)__cvta_generic_to_shared(stage_values_loaded + i * 32u);
          asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(vw) : "memory");
        }
      asm volatile("cp.async.commit_group;" ::: "memory");
    }
  }
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
  // early counts per warp, so the tile's aggregate is published before the ranking; the digits are
  // kept packed in registers (4 per word), so ordered_key runs once per key and pass
  u32 dpk[(ITEMS + 3) / 4];
#pragma unroll
  for (u32 q = 0; q < (ITEMS + 3) / 4; ++q) dpk[q] = 0;
  // byte i % 4 of dpk[i / 4] (PRMT: one instruction)
#define ONESWEEP_PACK_DIGIT(i, d) \
  dpk[(i) / 4] = __byte_perm(dpk[(i) / 4], (d), (0x3210u & ~(0xFu << (4u * ((i) % 4)))) | (4u << (4u * ((i) % 4))))
  u32* my_counts = warp_off[warp];
  // full stripes (all but the last tile's) count without validity tests
#define ONESWEEP_COUNT_LOOP(DIGIT)                    \
  if (full_stripe) {                                  \
    _Pragma("unroll") for (u32 i = 0; i < ITEMS; ++i) { \
      const u32 d = (DIGIT);                          \
      atomicAdd(&my_counts[d], 1u);                   \
      ONESWEEP_PACK_DIGIT(i, d);                      \
    }                                                 \
  } else {                                            \
    _Pragma("unroll") for (u32 i = 0; i < ITEMS; ++i) \
      if (i * 32u + lane < in_stripe) {               \
        const u32 d = (DIGIT);                        \
        atomicAdd(&my_counts[d], 1u);                 \
        ONESWEEP_PACK_DIGIT(i, d);                    \
      }                                               \
  }
#if RADIX_FLOAT_FLAG
  if (hist[RADIX_PASSES * RADIX] == 0) {  // no -0 or NaN key: digits of the plain sign flip
    ONESWEEP_COUNT_LOOP((u32)(radix_plain_float_key(k[i], flip) >> shift) & RADIX_MASK)
  } else {
    ONESWEEP_COUNT_LOOP(radix_digit(k[i], flip, shift))
  }
#elif KEY_BITS == 32 && KEY_KIND != 2 && RADIX_BITS == 8
  // 32-bit integer keys: the digit is byte shift / 8 of the ordered key (PRMT)
  const u32 digit_sel = 0x4440u | (shift >> 3);
  ONESWEEP_COUNT_LOOP(__byte_perm((u32)ordered_key(k[i], flip), 0u, digit_sel))
#else
  ONESWEEP_COUNT_LOOP(radix_digit(k[i], flip, shift))
#endif
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
  const u32 lanes_le = 0xFFFFFFFFu >> (31u - lane);
#if ONESWEEP_LOOKBACK_SNAPSHOT
  // 4-byte cp.async (.ca: the words are re-read live past the copy anyway)
#define ONESWEEP_SNAPSHOT_ISSUE()                                                                        \
  if (tile > 0) {                                                                                        \
    _Pragma("unroll") for (u32 j = 0; j < ONESWEEP_LOOKBACK_SNAPSHOT; ++j) if (tile > j) {               \
      const u32 dst = (u32)__cvta_generic_to_shared(snap + j * RADIX + t);                              \
      const u32* src = status + (u64)(tile - 1u - j) * RADIX + t;                                        \
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(src) : "memory");          \
    }                                                                                                    \
    asm volatile("cp.async.commit_group;" ::: "memory");                                                 \
  } else                                                                                                 \
    (void)0
#else
#define ONESWEEP_SNAPSHOT_ISSUE() (void)0
#endif
  key_t* stage_keys = (key_t*)stage;
#if HAS_VALUES && ONESWEEP_SPLIT_STAGE
  value_t* stage_values = (value_t*)(stage + (u64)TILE * (KEY_BITS / 8));  // beside the keys
#endif
#if ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_STAGE(i, d) stage_keys[pos[i]] = k[i]
#else
#define ONESWEEP_STAGE(i, d)    \
  stage_keys[pos[i]] = k[i];    \
  stage_digit[pos[i]] = (u8)(d)
#endif
#define ONESWEEP_DIGIT(i) ((dpk[(i) / 4] >> (8u * ((i) % 4))) & 0xFFu)  // 0 past the end
  if (full_stripe) {
    // every lane holds ITEMS keys (all stripes but the last tile's): no validity masks
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) {
      if (i == ITEMS / 2) ONESWEEP_SNAPSHOT_ISSUE();
      const u32 d = ONESWEEP_DIGIT(i);
      pos[i] = radix_rank_full(d, my_counts, lanes_le);
      ONESWEEP_STAGE(i, d);  // the rank is final: stage the key (and its digit) in tile order at once
    }
  } else {
#pragma unroll
    for (u32 i = 0; i < ITEMS; ++i) {
      if (i == ITEMS / 2) ONESWEEP_SNAPSHOT_ISSUE();
      const u32 rem = in_stripe > i * 32u ? in_stripe - i * 32u : 0u;
      const u32 valid = rem >= 32u ? 0xFFFFFFFFu : (1u << rem) - 1u;
      const u32 is_valid = lane < rem;
      const u32 d = ONESWEEP_DIGIT(i);
      const u32 peers = radix_match_peers(d, valid, is_valid);
      const u32 leader = 31u - __clz(peers);
      const u32 rank_le = __popc(peers & lanes_le);
      u32 before = 0;
      if (is_valid && lane == leader) before = atomicAdd(&warp_off[warp][d], rank_le);
      pos[i] = __shfl_sync(0xFFFFFFFFu, before, leader & 31u) + rank_le - 1u;
      if (is_valid) {
        ONESWEEP_STAGE(i, d);
      }
    }
  }

#if ONESWEEP_PACKED_IN
  value_t v[ITEMS];  // this thread's own load-order slots: no barrier before reading them back
  asm volatile("cp.async.wait_all;" ::: "memory");  // the crossing stripe's copies (none elsewhere)
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) v[i] = stage_values_loaded[i * 32u];
#elif HAS_VALUES
  value_t v[ITEMS];  // loaded now: in flight during the look-back and the key scatter
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) v[i] = values_in[stripe + i * 32u + lane];
#endif

  // one digit per thread: decoupled look-back (predecessors have had the whole ranking to publish).
  // ONESWEEP_LOOKBACK_WINDOW predecessors are read at once (tuning: windows of 2-16 were slower,
  // docs/PERFORMANCE.md, sixth round).
  if (tile > 0) {
    const volatile u32* column = status + t;
    u32 next = tile;  // predecessors below `next` are not summed yet
#if ONESWEEP_LOOKBACK_SNAPSHOT
    bool found = false;  // an INCLUSIVE word was summed: the walk is over
    asm volatile("cp.async.wait_all;" ::: "memory");  // this thread's own copies: no barrier needed
#pragma unroll
    for (u32 j = 0; j < ONESWEEP_LOOKBACK_SNAPSHOT; ++j) {
      if (!found && next == tile - j && tile > j) {  // contiguous published words only
        const u32 w = snap[j * RADIX + t];
        if ((w & (STATUS_AGGREGATE | STATUS_INCLUSIVE)) != 0u) {
          exclusive += w & STATUS_VALUE;
          next -= 1u;
          found = (w & STATUS_INCLUSIVE) != 0u;
        }
      }
    }
    if (!found)
#endif
    for (;;) {
      u32 s[ONESWEEP_LOOKBACK_WINDOW];
#pragma unroll
      for (u32 j = 0; j < ONESWEEP_LOOKBACK_WINDOW; ++j) s[j] = next > j ? column[(u64)(next - 1u - j) * RADIX] : 0u;
      u32 used = 0;  // leading published words of the window, summed
      bool done = false;
#pragma unroll
      for (u32 j = 0; j < ONESWEEP_LOOKBACK_WINDOW; ++j) {
        if (!done && used == j && (s[j] & (STATUS_AGGREGATE | STATUS_INCLUSIVE)) != 0u) {
          exclusive += s[j] & STATUS_VALUE;
          used = j + 1u;
          done = (s[j] & STATUS_INCLUSIVE) != 0u;  // tile 0's word is inclusive: the walk ends there
        }
      }
      if (done) break;
      next -= used;
    }
    *my_status = STATUS_INCLUSIVE | (exclusive + count);
  }
  global_base[t] = exclusive - excl_digit;
#if HAS_VALUES && ONESWEEP_SPLIT_STAGE
  // values staged beside the keys (own area), so one barrier serves both and one loop writes both
#if ONESWEEP_PACKED_IN
  __syncthreads();  // every thread has read its load-order values back
#endif
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) stage_values[pos[i]] = v[i];
#endif
  __syncthreads();

  const u32 valid = (u32)gs_min_u64((u64)TILE, n - base);
#if ONESWEEP_RECOMPUTE_DIGIT
#define ONESWEEP_GLOBAL(s) (global_base[radix_digit(stage_keys[s], flip, shift)] + (s))
#else
#define ONESWEEP_GLOBAL(s) (global_base[stage_digit[s]] + (s))  // < 2^30: n < 2^30 on this path
#endif
#if ONESWEEP_PACKED_OUT
  {
    const u64 half = n / 2u;
    if (valid == TILE) {
#pragma unroll 4
      for (u32 s = t; s < TILE; s += GROUP_SIZE)
        radix_packed_store((u32*)keys_out, (u32*)values_out, half, ONESWEEP_GLOBAL(s), stage_keys[s], stage_values[s]);
    } else {
      for (u32 s = t; s < valid; s += GROUP_SIZE)
        radix_packed_store((u32*)keys_out, (u32*)values_out, half, ONESWEEP_GLOBAL(s), stage_keys[s], stage_values[s]);
    }
  }
#elif HAS_VALUES && ONESWEEP_SPLIT_STAGE
  // keys in one sweep, then values in a second (a warp's stores stay in one output array: faster than
  // alternating, H200 run 17); a full tile keeps the global positions in registers between the sweeps
  if (valid == TILE) {
    u32 g[ITEMS];
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
  __syncthreads();
  value_t* stage_values = (value_t*)stage;
#pragma unroll
  for (u32 i = 0; i < ITEMS; ++i)
    if (i * 32u + lane < in_stripe) stage_values[pos[i]] = v[i];
  __syncthreads();
  for (u32 s = t; s < valid; s += GROUP_SIZE) values_out[ONESWEEP_GLOBAL(s)] = stage_values[s];
#endif
}
#endif  // GS_CUDA
