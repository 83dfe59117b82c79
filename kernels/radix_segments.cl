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
//  - radix_segment_tiles_256_<items>: block b sorts segment b in place (keys and values).
// RADIX_SEGMENT_INTERLEAVED (the host's SegmentPolicy::interleaved; 4-byte keys with 4-byte values):
// the last onesweep pass left the pairs interleaved (radix_interleaved_pairs.h: one 8-byte store per
// pair instead of two 4-byte ones), and the tiles unpack them as they sort. radix_segment_starts then
// also copies the 32 pairs at each end of every segment aside (the only ones whose words may lie in a
// neighbouring segment's part of the buffers), and radix_segment_unpack serves the ordinary passes
// when a segment outgrows the tile.
// Specialised like radix_single_tile.cl (keys.h's defines, RADIX_BITS, RADIX_MATCH_IMMEDIATE) and by
// RADIX_SEGMENT_RANK_FIRST (the host's SegmentPolicy::rank_first, how the tiles' passes rank,
// radix_single_tile.h: 0 count, scan, rank; 1 rank first, the first pass's ranks from shared atomics
// where the keys are alone).
// NVRTC-CHECK-DEFINES: RADIX_BITS=8 RADIX_SEGMENT_RANK_FIRST=1 RADIX_SEGMENT_MIN_BLOCKS=0
// NVRTC-CHECK-DEFINES: RADIX_SEGMENT_INTERLEAVED=0
#include "radix_common.h"

#if !GS_CUDA
#error "radix_segments.cl is for CUDA"
#endif
#if RADIX_BITS != 8
#error "segments are the top two 8-bit digits"
#endif
#ifndef RADIX_SEGMENT_RANK_FIRST
#error "radix_segments.cl takes RADIX_SEGMENT_RANK_FIRST from the host"
#endif
// RADIX_SEGMENT_MIN_BLOCKS (the host's SegmentPolicy::min_blocks): blocks per SM the tiles' kernels
// are built for (__launch_bounds__' second argument, a register cap); 0: the compiler's choice.
#ifndef RADIX_SEGMENT_MIN_BLOCKS
#error "radix_segments.cl takes RADIX_SEGMENT_MIN_BLOCKS from the host"
#endif
#ifndef RADIX_SEGMENT_INTERLEAVED
#error "radix_segments.cl takes RADIX_SEGMENT_INTERLEAVED from the host"
#endif
#if RADIX_SEGMENT_INTERLEAVED && !(HAS_VALUES && KEY_BITS == 32 && VALUE_BYTES == 4 && KEY_KIND != 2)
#error "interleaved pairs are 4-byte integer keys with 4-byte values"
#endif
#if RADIX_SEGMENT_MIN_BLOCKS
#define SEGMENT_BOUNDS(TPB) __launch_bounds__(TPB, RADIX_SEGMENT_MIN_BLOCKS)
#else
#define SEGMENT_BOUNDS(TPB) __launch_bounds__(TPB)
#endif
// Keys narrower than 32 bits have no kernels here (the host takes the segments for keys of 32 bits or
// more only; the program still builds, as every kernel file does for the NVRTC check).
#if KEY_BITS >= 32

#include "radix_single_tile.h"
#include "radix_interleaved_pairs.h"

#define SEGMENT_LOW_BITS (KEY_BITS - 16)  // the bits each segment's block sorts
#define SEGMENTS (1u << 16)
// seg's words (the host's kSegmentWords) before the interleaved pairs' copies (kSegmentEndWords): per
// segment 2 x INTERLEAVED_BLOCK pairs as 8-byte words, its first ones, then its last ones
#define SEGMENT_ENDS_AT (SEGMENTS + 2u)
#define SEGMENT_END_PAIRS (2u * INTERLEAVED_BLOCK)

#if RADIX_SEGMENT_INTERLEAVED
#define SEGMENT_KEY(e) ((key_t)(u32)radix_interleaved_load((const u32*)keys, (const u32*)values, n, (e)))
#else
#define SEGMENT_KEY(e) keys[e]
#endif

// One block per top digit (RADIX blocks of RADIX threads); thread t finds segment (top << 8 | t):
// the first key of the top digit's range (from the histogram's top row, the digit counts of the
// images that the passes used) whose next digit is >= t. seg[0]: the largest segment's size
// (atomicMax; zeroed by the host), seg[1 + b]: where segment b starts, seg[1 + SEGMENTS] = n;
// interleaved pairs: from seg[SEGMENT_ENDS_AT] on, each segment's end pairs (the block's segments'
// together, consecutive words per thread).
KERNEL __launch_bounds__(RADIX)
radix_segment_starts(const key_t* RESTRICT keys, const value_t* RESTRICT values, u32 n, okey_t flip,
                     const u64* RESTRICT hist, u32* RESTRICT seg) {
  (void)values;
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
    if (radix_digit(SEGMENT_KEY(mid), flip, shift) < t)
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
#if RADIX_SEGMENT_INTERLEAVED
  // this block's segments' end pairs: slot c of the block's, 8 loads in flight per thread
  const u32 *K = (const u32*)keys, *V = (const u32*)values;
  u64* ends = (u64*)(seg + SEGMENT_ENDS_AT) + (u64)top * RADIX * SEGMENT_END_PAIRS;
  for (u32 r = 0; r < SEGMENT_END_PAIRS; r += 8u) {
    u64 w[8];
    bool copy[8];
#pragma unroll
    for (u32 b = 0; b < 8u; ++b) {
      const u32 c = (r + b) * RADIX + t, s = c / SEGMENT_END_PAIRS, j = c % SEGMENT_END_PAIRS;
      const u32 first = found[s], size = (s + 1u < RADIX ? found[s + 1u] : top_end) - first;
      // slot j < 32: pair j of the segment; j >= 32: pair size - 64 + j (the last 32)
      copy[b] = j < INTERLEAVED_BLOCK ? j < size : size + j >= SEGMENT_END_PAIRS;
      if (copy[b]) w[b] = radix_interleaved_load(K, V, n, first + (j < INTERLEAVED_BLOCK ? j : size + j - SEGMENT_END_PAIRS));
    }
#pragma unroll
    for (u32 b = 0; b < 8u; ++b)
      if (copy[b]) ends[(r + b) * RADIX + t] = w[b];
  }
#endif
}

#if RADIX_SEGMENT_INTERLEAVED
// Block b's segment [first, first + size) of interleaved pairs, unpacked as it is sorted: the inner
// pairs from their words (within the segment's own part of K and V), the 32 at each end from
// radix_segment_starts' copies, so no word another block writes is read. The block's tile starts at
// the block of 32 pairs that holds the first one (lead = first % 32 positions before it, padding whose
// images are 0: they sort first and are not written; the host leaves room for them), so each warp's
// load of an item is two whole 128-byte lines, one in K and one in V, and a thread's items are 32
// pairs apart, at the same place of consecutive blocks: one base address, an immediate offset each.
// The first 32 pairs are in warp 0's items 0 and 1; the last 32 in at most two warps' stripes.
template <u32 TPB, u32 IT, bool RANK_FIRST>
DEVICE_FN void radix_segment_interleaved_body(u8* smem, key_t* keys, value_t* values, const u32* RESTRICT seg,
                                              u32 first, u32 size, okey_t flip) {
  const u64* ends = (const u64*)(seg + SEGMENT_ENDS_AT) + (u64)blockIdx.x * SEGMENT_END_PAIRS;
  const u32 lane = threadIdx.x & 31u, stripe = (threadIdx.x >> 5) * 32u * IT;
  const u32 lead = first % INTERLEAVED_BLOCK, base = first - lead, n = lead + size;  // tile position p: pair base + p
  const u64* w0 = (const u64*)(((lane & 16u) ? (const u32*)values : (const u32*)keys) +
                               radix_interleaved_offset(base + stripe + lane));
  key_t k[IT];
  value_t v[IT];
  static_assert(IT >= 2, "the first 32 pairs and the padding are in warp 0's items 0 and 1");
#pragma unroll
  for (u32 i = 0; i < IT; ++i) {
    const u32 p = stripe + i * 32u + lane;  // pair p - lead of the segment
    if (p >= lead + INTERLEAVED_BLOCK && p + INTERLEAVED_BLOCK < n) {
      const u64 w = w0[16u * i];
      k[i] = (key_t)(u32)w, v[i] = (value_t)(u32)(w >> 32);
    }
  }
  if (threadIdx.x < 32u) {  // the padding and the first 32 pairs
#pragma unroll
    for (u32 i = 0; i < 2u; ++i) {
      const u32 p = i * 32u + lane, g = p - lead;
      if (p < lead) {
        k[i] = radix_integer_key(0, flip);
      } else if (g < INTERLEAVED_BLOCK && g < size) {
        k[i] = (key_t)(u32)ends[g], v[i] = (value_t)(u32)(ends[g] >> 32);
      }
    }
  }
  const u32 last_from = size > SEGMENT_END_PAIRS ? size - INTERLEAVED_BLOCK : INTERLEAVED_BLOCK;  // then the last copies
  if (stripe < n && stripe + 32u * IT > lead + last_from) {  // this warp holds some of them
#pragma unroll
    for (u32 i = 0; i < IT; ++i) {
      const u32 g = stripe + i * 32u + lane - lead;  // wraps below lead: then past size
      if (g >= last_from && g < size) {
        const u64 w = ends[g + SEGMENT_END_PAIRS - size];
        k[i] = (key_t)(u32)w, v[i] = (value_t)(u32)(w >> 32);
      }
    }
  }
  radix_single_tile_sort_loaded<TPB, IT, SEGMENT_LOW_BITS, RANK_FIRST>(smem, k, v, keys + base, values + base, n,
                                                                      flip, lead);
}

// The ordinary passes' input when a segment outgrew the tile: every interleaved pair unpacked into
// other buffers (blocks of the host's kSegmentUnpackGroup threads).
KERNEL __launch_bounds__(256) radix_segment_unpack(const key_t* RESTRICT keys, const value_t* RESTRICT values, u32 n,
                                                   key_t* RESTRICT keys_out, value_t* RESTRICT values_out) {
  const u32 e = blockIdx.x * blockDim.x + threadIdx.x;
  if (e < n) {
    const u64 w = radix_interleaved_load((const u32*)keys, (const u32*)values, n, e);
    keys_out[e] = (key_t)(u32)w, values_out[e] = (value_t)(u32)(w >> 32);
  }
}
#endif

#if RADIX_SEGMENT_INTERLEAVED
#define SEGMENT_LEAD(first) ((first) % INTERLEAVED_BLOCK)  // the tile's padding before the segment
#define SEGMENT_TILE_BODY(TPB, IT) \
  radix_segment_interleaved_body<TPB, IT, (RADIX_SEGMENT_RANK_FIRST != 0)>(smem, keys, values, seg, first, size, flip)
#else
#define SEGMENT_LEAD(first) 0u
#define SEGMENT_TILE_BODY(TPB, IT)                                                                              \
  radix_single_tile_body<TPB, IT, SEGMENT_LOW_BITS, (RADIX_SEGMENT_RANK_FIRST != 0)>(smem, keys + first, values + first, \
                                                                                   keys + first, values + first, size, flip, 0u)
#endif
// Block b: segment b, [seg[1 + b], seg[2 + b]), sorted in place by its low bits (a segment of one
// key moves only out of interleaved pairs). The host launches a shape only when the largest segment
// fits its tile (with interleaved pairs, with 31 positions more: the tile's lead); a larger one is
// left alone here, never written past.
#define GS_SEGMENT_TILE_KERNEL(TPB, IT)                                                                       \
  KERNEL SEGMENT_BOUNDS(TPB) radix_segment_tiles_##TPB##_##IT(key_t* keys, value_t* values,                \
                                                                 const u32* RESTRICT seg,                     \
                                                                 okey_t flip GS_DYNAMIC_LOCAL) {              \
    GS_DECLARE_DYNAMIC_LOCAL(u8, smem);                                                                       \
    const u32 first = seg[1u + blockIdx.x], size = seg[2u + blockIdx.x] - first;                             \
    if (size < 1u + !RADIX_SEGMENT_INTERLEAVED || size + SEGMENT_LEAD(first) > TPB * IT) return;             \
    SEGMENT_TILE_BODY(TPB, IT);                                                                               \
  }
// the shapes of radix_policy.cpp's kSegmentShapes
GS_SEGMENT_TILE_KERNEL(256, 6)
GS_SEGMENT_TILE_KERNEL(256, 10)
GS_SEGMENT_TILE_KERNEL(256, 18)
#undef GS_SEGMENT_TILE_KERNEL
#undef SEGMENT_TILE_BODY
#undef SEGMENT_LEAD

#endif  // KEY_BITS >= 32
