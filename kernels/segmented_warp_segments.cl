// Segmented sorts by offsets on CUDA, the short segments of the binned bin
// (src/algorithms/segmented/segmented_warp_segments.cpp): one warp per segment of 1 to max_length
// keys (at most 128), sorted by a bitonic network in registers, with no shared memory and
// no barrier. Segments of 2^k keys or fewer take the network of N = 2^k elements (the
// segment padded with all ones, which sort after every key): up to 32 elements one per lane, more
// R = N / 32 per lane. The tile bin (segmented_tiles_offsets, given the same max_length) leaves these
// segments alone, so every segment is written by exactly one kernel.
//
// The network sorts (ordered_key(k, flip), input position), a strict total order: equal keys keep
// their input order in both orders (flip is inside the ordered key). It is bitonic_network.h's form
// in which every comparator puts the smaller element lower (a stage's first step pairs a position
// with its mirror), so padding never moves below a key. Element p of the network sits in register
// p % R of lane p / R; a step whose partner differs only in the register bits is done in registers,
// any other by a shuffle (the partner's lane differs in the bits below N / R, so a network of fewer
// than 32 lanes never leaves its lanes). The keys are loaded striped (input position r * 32 + lane in
// register r: coalesced); where an element starts does not matter, since it carries its position.
// At the end each output position reads its key again by that position (the exact bits: NaN
// payloads, the sign of zero) and its value, or makes the position itself for an argsort; every lane
// reads before any lane writes, so in place is safe.
//
// Specialised by keys.h's defines; the segment bounds are read from the offsets (4 or 8 bytes,
// segmented_offsets.h).
#include "keys.h"
#include "nvidia_ops.h"
#include "segmented_offsets.h"

#if GS_CUDA

#if KEY_BITS == 64
// 64-bit keys: the ordered key and the position apart, compared in that order.
struct ws_element {
  u64 o;
  u32 e;
};
DEVICE_FN ws_element ws_make(okey_t o, u32 e) { return ws_element{o, e}; }
DEVICE_FN ws_element ws_padding(void) { return ws_element{(u64)KEY_ALL_ONES, 0xFFFFFFFFu}; }
DEVICE_FN u32 ws_position(ws_element a) { return a.e; }
DEVICE_FN bool ws_less(ws_element a, ws_element b) { return a.o < b.o || (a.o == b.o && a.e < b.e); }
DEVICE_FN ws_element ws_shuffle_xor(ws_element a, u32 mask) {
  const u32 hi = __shfl_xor_sync(0xFFFFFFFFu, (u32)(a.o >> 32), mask);
  const u32 lo = __shfl_xor_sync(0xFFFFFFFFu, (u32)a.o, mask);
  return ws_element{(u64)hi << 32 | lo, __shfl_xor_sync(0xFFFFFFFFu, a.e, mask)};
}
#else
// Keys of up to 32 bits: (ordered key << 32) | position, one word whose order is the element order.
typedef u64 ws_element;
DEVICE_FN ws_element ws_make(okey_t o, u32 e) { return (u64)o << 32 | e; }
DEVICE_FN ws_element ws_padding(void) { return ~(u64)0; }
DEVICE_FN u32 ws_position(ws_element a) { return (u32)a; }
DEVICE_FN bool ws_less(ws_element a, ws_element b) { return a < b; }
DEVICE_FN ws_element ws_shuffle_xor(ws_element a, u32 mask) { return __shfl_xor_sync(0xFFFFFFFFu, a, mask); }
#endif

// Step (S, JJ) of the network over 2^LOG_N elements, R per lane, then the steps after it: stage S
// makes sorted runs of 2^S; JJ is the partner's highest differing bit (JJ = S - 1: the mirror).
template <u32 LOG_N, u32 R, u32 S, u32 JJ>
DEVICE_FN void ws_steps(ws_element (&v)[R], u32 lane) {
  constexpr u32 TOP = 1u << JJ;
  constexpr u32 MASK = JJ + 1 == S ? (1u << S) - 1u : TOP;
  constexpr u32 REG_MASK = MASK & (R - 1u), LANE_MASK = MASK / R;
  if constexpr (TOP < R) {  // the partner is in this lane's registers
#pragma unroll
    for (u32 r = 0; r < R; ++r) {
      if ((r & TOP) == 0u) {
        const u32 q = r ^ REG_MASK;
        if (ws_less(v[q], v[r])) {
          const ws_element t = v[r];
          v[r] = v[q];
          v[q] = t;
        }
      }
    }
  } else {
    ws_element w[R];
#pragma unroll
    for (u32 r = 0; r < R; ++r) w[r] = ws_shuffle_xor(v[r ^ REG_MASK], LANE_MASK);
    const bool lower = (lane & (TOP / R)) == 0u;  // this lane's elements are the lower of their pairs
#pragma unroll
    for (u32 r = 0; r < R; ++r)
      if (ws_less(w[r], v[r]) == lower) v[r] = w[r];  // the lower keeps the smaller (no two are equal)
  }
  if constexpr (JJ > 0) {
    ws_steps<LOG_N, R, S, JJ - 1>(v, lane);
  } else if constexpr (S < LOG_N) {
    ws_steps<LOG_N, R, S + 1, S>(v, lane);
  }
}

// Sorts the segment [start, start + length), 2^(LOG_N - 1) < length <= 2^LOG_N (or length 1 with LOG_N 0).
template <u32 LOG_N>
DEVICE_FN void ws_sort(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                       GLOBAL value_t* values_out, u64 start, u32 length, u32 positions, okey_t flip, u32 lane) {
  constexpr u32 R = LOG_N > 5 ? 1u << (LOG_N - 5) : 1u;
  ws_element v[R];
#pragma unroll
  for (u32 r = 0; r < R; ++r) {
    const u32 e = r * 32u + lane;
    v[r] = e < length ? ws_make(ordered_key(keys_in[start + e], flip), e) : ws_padding();
  }
  if constexpr (LOG_N > 0) ws_steps<LOG_N, R, 1, 0>(v, lane);
  key_t k[R];
#if HAS_VALUES
  value_t x[R];
#else
  (void)values_in, (void)values_out, (void)positions;
#endif
#pragma unroll
  for (u32 r = 0; r < R; ++r) {
    if (lane * R + r < length) {
      const u32 e = ws_position(v[r]);
      k[r] = keys_in[start + e];
#if HAS_VALUES
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
      if (positions)
        x[r] = (value_t)e;
      else
#endif
        x[r] = values_in[start + e];
#endif
    }
  }
  warp_sync();  // in place: every read above before any write below
#pragma unroll
  for (u32 r = 0; r < R; ++r) {
    const u32 p = lane * R + r;
    if (p < length) {
      keys_out[start + p] = k[r];
#if HAS_VALUES
      values_out[start + p] = x[r];
#endif
    }
  }
}

DEVICE_FN u32 ws_ceil_log2(u32 x) { return x <= 1u ? 0u : 32u - warp_clz(x - 1u); }

// Warp w sorts segment w of the count segments whose count + 1 offsets start at element `first`
// of offsets_buffer, where it holds 1 to max_length keys (max_length <= 128: 4 elements per lane at most); other
// segments are left untouched. Blocks of whole warps.
KERNEL segmented_warp_segments(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                               GLOBAL value_t* values_out, GLOBAL const u32* offsets_buffer, u64 first, u32 wide,
                               u64 count, u32 max_length, u32 positions, okey_t flip) {
  const u64 s = (GROUP_ID() * (u64)LOCAL_SIZE() + LOCAL_ID()) >> 5;  // the same in every lane of a warp
  if (s >= count) return;
  const u32 lane = LOCAL_ID() & 31u;
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  const u64 start = offset_at(offsets, wide, s), length = offset_at(offsets, wide, s + 1) - start;
  if (length == 0 || length > max_length) return;
  const u32 n = (u32)length;
  switch (ws_ceil_log2(n)) {
#define WS_CASE(L)                                                                                   \
  case L:                                                                                            \
    ws_sort<L>(keys_in, keys_out, values_in, values_out, start, n, positions, flip, lane); \
    break;
    WS_CASE(0)
    WS_CASE(1)
    WS_CASE(2)
    WS_CASE(3)
    WS_CASE(4)
    WS_CASE(5)
    WS_CASE(6)
    WS_CASE(7)
#undef WS_CASE
    default:
      break;
  }
}
#endif  // GS_CUDA
