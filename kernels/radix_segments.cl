// CUDA radix sort of large inputs, the low digits per segment (the host's RadixPolicy::segments,
// radix_sort.cpp): once the onesweep passes have sorted the keys by the top 16 bits of their images
// (two 8-bit passes, stable), keys that share those bits lie together, in 65536 segments of about
// n / 65536 keys. Each segment is then sorted by its remaining bits in one block, in shared memory
// (radix_single_tile.h's passes), so the low digits cost one read and one write of the keys instead
// of one onesweep pass each (Stehle & Jacobsen, "A Memory Bandwidth-Efficient Hybrid Radix Sort on
// GPUs", SIGMOD 2017, finish small MSD buckets in shared memory the same way).
//  - radix_segment_starts: where each segment starts (a binary search per segment within its top
//    digit's range, from the histogram), and the largest segment's size, which the host reads: a
//    segment larger than the tile it chose is sorted by the ordinary passes instead;
//  - radix_segment_tiles_<threads>_<items>: block b sorts segment b in place (keys and values).
// Specialised like radix_single_tile.cl (keys.h's defines, RADIX_BITS, RADIX_FLOAT_FLAG,
// RADIX_MATCH_IMMEDIATE) and by RADIX_SEGMENT_RANK (the host's SegmentPolicy::rank_form, how the tiles'
// passes rank, radix_single_tile.h: 0 count, scan, rank; 1 rank first (RANK_FIRST); 2 rank first with
// the first pass's ranks from shared atomics where the keys are alone (ATOMIC_FIRST)).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 RADIX_FLOAT_FLAG=1 RADIX_SEGMENT_RANK=2 RADIX_SEGMENT_MIN_BLOCKS=0
#include "radix_common.h"

#if !GS_CUDA
#error "radix_segments.cl is for CUDA"
#endif
#ifndef RADIX_FLOAT_FLAG
#error "radix_segments.cl takes RADIX_FLOAT_FLAG from the host"
#endif
#if RADIX_FLOAT_FLAG && KEY_KIND != 2  // the plain sign flip is for float keys
#undef RADIX_FLOAT_FLAG
#define RADIX_FLOAT_FLAG 0
#endif
#if RADIX_BITS != 8
#error "segments are the top two 8-bit digits"
#endif
#ifndef RADIX_SEGMENT_RANK
#error "radix_segments.cl takes RADIX_SEGMENT_RANK from the host"
#endif
// RADIX_SEGMENT_MIN_BLOCKS (the host's SegmentPolicy::min_blocks): 256-thread blocks per SM the tiles'
// kernels are built for (__launch_bounds__' second argument, a register cap; 512-thread tiles half as
// many blocks, the same cap); 0: the compiler's choice.
#ifndef RADIX_SEGMENT_MIN_BLOCKS
#error "radix_segments.cl takes RADIX_SEGMENT_MIN_BLOCKS from the host"
#endif
#if RADIX_SEGMENT_MIN_BLOCKS
#define SEGMENT_BOUNDS(TPB) __launch_bounds__(TPB, (RADIX_SEGMENT_MIN_BLOCKS * 256 + TPB - 1) / TPB)
#else
#define SEGMENT_BOUNDS(TPB) __launch_bounds__(TPB)
#endif
// Keys narrower than 32 bits have no kernels here (the host takes the segments for keys of 32 bits or
// more only; the program still builds, as every kernel file does for the NVRTC check).
#if KEY_BITS >= 32

#include "radix_single_tile.h"

#define SEGMENT_LOW_BITS (KEY_BITS - 16)  // the bits each segment's block sorts
#define SEGMENTS (1u << 16)

// One block per top digit (RADIX blocks of RADIX threads); thread t finds segment (top << 8 | t):
// the first key of the top digit's range (from the histogram's top row, the digit counts of the
// images that the passes used) whose next digit is >= t. seg[0]: the largest segment's size
// (atomicMax; zeroed by the host), seg[1 + b]: where segment b starts, seg[1 + SEGMENTS] = n.
KERNEL __launch_bounds__(RADIX)
radix_segment_starts(const key_t* RESTRICT keys, u32 n, okey_t flip, const u64* RESTRICT hist, u32* RESTRICT seg) {
  u32* starts = seg + 1;
  __shared__ u32 scan_sums[RADIX / 32];
  __shared__ u32 top_first, top_end;
  __shared__ u32 found[RADIX];
  const u32 top = blockIdx.x, t = threadIdx.x;
  const u32 count = (u32)hist[(RADIX_PASSES - 1) * RADIX + t];
  const u32 before = radix_block_exclusive_scan(count, scan_sums);  // keys of top digits below t
  if (t == top) top_first = before, top_end = before + count;
  __syncthreads();
  u32 lo = top_first, hi = top_end;  // lower bound of digit t among the range's next digits
  const u32 shift = (RADIX_PASSES - 2) * RADIX_BITS;
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2u;
    if (radix_digit(keys[mid], flip, shift) < t)
      lo = mid + 1u;
    else
      hi = mid;
  }
  starts[top * RADIX + t] = lo;
  found[t] = lo;
  __syncthreads();
  const u32 end = t + 1u < RADIX ? found[t + 1u] : top_end;
  atomicMax(seg, end - lo);
  if (top == RADIX - 1u && t == RADIX - 1u) starts[SEGMENTS] = n;
}

// Block b: segment b, [seg[1 + b], seg[2 + b]), sorted in place by its low bits. The host launches
// a shape only when the largest segment fits its tile; a larger one is left alone here, never
// written past.
#define GS_SEGMENT_TILE_KERNEL(TPB, IT)                                                                       \
  KERNEL SEGMENT_BOUNDS(TPB) radix_segment_tiles_##TPB##_##IT(key_t* keys, value_t* values,                \
                                                                 const u32* RESTRICT seg,                     \
                                                                 okey_t flip GS_DYNAMIC_LOCAL) {              \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                       \
    const u32 first = seg[1u + blockIdx.x], size = seg[2u + blockIdx.x] - first;                             \
    if (size <= 1u || size > TPB * IT) return;                                                                \
    radix_single_tile_body<TPB, IT, SEGMENT_LOW_BITS, (RADIX_SEGMENT_RANK >= 1), (RADIX_SEGMENT_RANK == 2)>(      \
        smem, keys + first, values + first, keys + first, values + first, size, flip, 0u);                    \
  }
// the shapes of radix_policy.cpp's kSegmentShapes
GS_SEGMENT_TILE_KERNEL(256, 6)
GS_SEGMENT_TILE_KERNEL(256, 10)
GS_SEGMENT_TILE_KERNEL(256, 18)
GS_SEGMENT_TILE_KERNEL(512, 9)
GS_SEGMENT_TILE_KERNEL(512, 18)
#undef GS_SEGMENT_TILE_KERNEL

// Packed pairs (the host's SegmentPolicy::packed; integer keys of 32 bits with 4-byte values): a
// segment's keys share the top 16 bits of their images (the segment's number), so the passes move one
// word per pair, the image's low 16 bits above the pair's place in the segment, and the values wait in
// shared memory. At the end each key is rebuilt from the segment's number and its low bits, and its
// value read from its place. The passes are the stable ones (the place only travels along), so equal
// keys keep their input order.
#if KEY_BITS == 32 && VALUE_BYTES == 4 && KEY_KIND != 2
template <u32 TPB, u32 IT, bool RANK_FIRST>
DEVICE_FN void radix_segment_packed_body(u8* smem, key_t* keys, value_t* values, u32 n, u32 segment, okey_t flip) {
  const SingleTileLocal local = single_tile_local<TPB * IT>(smem);  // the single tile's areas
  __shared__ u32 scan_sums[TPB / 32];
  const u32 lane = threadIdx.x & 31u, stripe = (threadIdx.x >> 5) * 32u * IT;
  key_t w[IT];
#pragma unroll
  for (u32 i = 0; i < IT; ++i) {
    const u32 g = stripe + i * 32u + lane;
    if (g < n) {  // places < the tile (<= 9216): 16 bits
      w[i] = (key_t)((ordered_key(keys[g], flip) << 16) | g);
      local.stage_values[g + (g >> 5)] = values[g];
    } else {
      w[i] = (key_t)KEY_ALL_ONES;  // padding: digit RADIX - 1 in both passes, after every real key
    }
  }
  single_tile_passes<TPB, IT, 32, false, RANK_FIRST, false, 16, false>(w, (value_t*)0, local.stage_keys, local.stage_values,
                                                                      local.warp_off, scan_sums, n, flip);
#pragma unroll
  for (u32 i = 0; i < IT; ++i) {
    const u32 g = stripe + i * 32u + lane, place = w[i] & 0xFFFFu;
    if (g < n) {
      keys[g] = radix_integer_key((segment << 16) | (w[i] >> 16), flip);
      values[g] = local.stage_values[place + (place >> 5)];
    }
  }
}
#define GS_SEGMENT_PACKED_KERNEL(TPB, IT)                                                                     \
  KERNEL SEGMENT_BOUNDS(TPB) radix_segment_packed_##TPB##_##IT(key_t* keys, value_t* values,                  \
                                                               const u32* RESTRICT seg, okey_t flip GS_DYNAMIC_LOCAL) { \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                       \
    const u32 first = seg[1u + blockIdx.x], size = seg[2u + blockIdx.x] - first;                             \
    if (size <= 1u || size > TPB * IT) return;                                                                \
    radix_segment_packed_body<TPB, IT, (RADIX_SEGMENT_RANK >= 1)>(smem, keys + first, values + first, size,  \
                                                                  blockIdx.x, flip);                         \
  }
GS_SEGMENT_PACKED_KERNEL(256, 6)
GS_SEGMENT_PACKED_KERNEL(256, 10)
GS_SEGMENT_PACKED_KERNEL(256, 18)
GS_SEGMENT_PACKED_KERNEL(512, 9)
GS_SEGMENT_PACKED_KERNEL(512, 18)
#undef GS_SEGMENT_PACKED_KERNEL
#endif

#endif  // KEY_BITS >= 32
