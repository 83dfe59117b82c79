// CUDA radix sort of small inputs in one launch (radix_single_tile_<threads>_<items>; the host's
// RadixPath::single_tile), built as the program radix_single_tile.cl.
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
// Items past n take digit RADIX - 1 in every pass: they come last in the input and stay after every
// real key (stable), so every warp ranks full stripes. A pass where all keys share a digit is skipped.
// Dynamic local memory (host: single_tile_local_bytes, radix_policy.cpp): TILE keys, TILE values,
// threads / 32 x RADIX u32 counters.
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
#if RADIX_UNIFORM_COUNT
    if (radix_warp_uniform(SINGLE_DIGIT(0))) {  // sorted input: one atomic per warp and item
#pragma unroll
      for (u32 i = 0; i < SINGLE_ITEMS; ++i) radix_count_digit_warp(my_counts, SINGLE_DIGIT(i), lane);
    } else
#endif
    {
#pragma unroll
      for (u32 i = 0; i < SINGLE_ITEMS; ++i) atomicAdd(&my_counts[SINGLE_DIGIT(i)], 1u);
    }
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
// them (radix_policy.cpp, kSingleTileShapes, applies the same rule).
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

#endif  // GPUSORT_RADIX_SINGLE_TILE_H
