// Segmented sorts by offsets on CUDA, the short segments of the binned bin
// (src/algorithms/segmented/segmented_warp_segments.cpp): segments of 1 to max_length keys (at most
// 128) sorted by bitonic networks in registers, with no shared memory and no barrier. The tile bin
// (segmented_tiles_offsets, given the same max_length) leaves these segments alone, so every segment
// is written by exactly one kernel.
//
// Each warp takes WS_WARP_SEGMENTS (up to 32) consecutive segments and sorts them class by class: a segment of
// 2^(k-1) + 1 to 2^k keys takes the network of N = 2^k elements (padded with all ones, which sort
// after every key), R = min(N, 4) elements per lane, so N / R lanes each, and as many segments of the
// class at once as the warp has lanes for (32 of up to 4 keys, 2 of up to 64, 1 of up to 128). Four
// elements per lane make two of a stage's steps register steps, with no shuffle.
//
// The network sorts (ordered_key(k, flip), input position), a strict total order: equal keys keep
// their input order in both orders (flip is inside the ordered key). It is bitonic_network.h's form
// in which every comparator puts the smaller element lower (a stage's first step pairs a position
// with its mirror), so padding never moves below a key. Element p of a network sits in register
// p % R of its group's lane p / R; a step whose partner differs only in the register bits is done in
// registers, any other by a shuffle within the group's lanes. The keys are loaded striped over the
// group (input position r * (N / R) + lane in register r: coalesced); where an element starts does
// not matter, since it carries its position. At the end each output position reads its key again by
// that position (the exact bits: NaN payloads, the sign of zero) and its value, or makes the
// position itself for an argsort; every lane reads before any lane writes, so in place is safe.
//
// Specialised by keys.h's defines; the segment bounds are read from the offsets (4 or 8 bytes,
// segmented_offsets.h).
#include "keys.h"
#include "nvidia_ops.h"
#include "segmented_offsets.h"

#if GS_CUDA
#ifndef WS_WARP_SEGMENTS
#define WS_WARP_SEGMENTS 32  // segments per warp: 32, or fewer for more warps (latency hiding)
#endif

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
  return ws_element{__shfl_xor_sync(0xFFFFFFFFu, a.o, mask), __shfl_xor_sync(0xFFFFFFFFu, a.e, mask)};
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
// makes sorted runs of 2^S; JJ is the partner's highest differing bit (JJ = S - 1: the mirror). The
// lanes of a network are 2^LOG_N / R consecutive lanes, aligned: its shuffles stay among them.
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

// Sorts the warp's segments of 2^(LOG_N - 1) + 1 to 2^LOG_N keys (LOG_N 0: one key), the lanes of
// `members` (a ballot) holding their start and length: R = min(N, 4) elements per lane, so N / R
// lanes per segment and 32 / (N / R) segments at once, in rounds until all are done. Every lane of
// the warp calls it.
template <u32 LOG_N>
DEVICE_FN void ws_sort_class(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                             GLOBAL value_t* values_out, u32 members, u64 my_start, u32 my_length, u32 positions,
                             okey_t flip, u32 lane) {
  constexpr u32 N = 1u << LOG_N, R = N < 4u ? N : 4u, LANES = N / R, AT_ONCE = 32u / LANES;
  const u32 sub = lane & (LANES - 1u), group = lane / LANES, count = warp_popcount(members);
  for (u32 first = 0; first < count; first += AT_ONCE) {
    const u32 q = first + group;  // this group's segment: the q-th member
    const u32 owner = q < count ? __fns(members, 0u, (int)q + 1) : 0u;
    const u64 start = warp_shuffle_u64(my_start, owner);
    const u32 owner_length = warp_shuffle(my_length, owner);
    const u32 length = q < count ? owner_length : 0u;  // 0: the group has no segment this round
    ws_element v[R];
#pragma unroll
    for (u32 r = 0; r < R; ++r) {  // striped over the group's lanes: coalesced
      const u32 e = r * LANES + sub;
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
    for (u32 r = 0; r < R; ++r) {  // element p = sub * R + r is the segment's p-th
      if (sub * R + r < length) {
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
      const u32 p = sub * R + r;
      if (p < length) {
        keys_out[start + p] = k[r];
#if HAS_VALUES
        values_out[start + p] = x[r];
#endif
      }
    }
  }
}

// Warp w takes segments W w to W w + W - 1 (W = WS_WARP_SEGMENTS) of the count segments whose count + 1
// offsets start at element `first` of offsets_buffer (lane l < W reads segment W w + l's bounds), and sorts those of 1 to
// max_length keys (max_length <= 128), class by class of network size; other segments are left
// untouched. Blocks of whole warps.
KERNEL segmented_warp_segments(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                               GLOBAL value_t* values_out, GLOBAL const u32* offsets_buffer, u64 first, u32 wide,
                               u64 count, u32 max_length, u32 positions, okey_t flip) {
  const u32 lane = LOCAL_ID() & 31u;
  const u64 warp = (GROUP_ID() * (u64)LOCAL_SIZE() + LOCAL_ID()) >> 5;
  const u64 s = warp * WS_WARP_SEGMENTS + lane;
  if (warp * WS_WARP_SEGMENTS >= count) return;  // the whole warp: past the last segment
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  u64 start = 0;
  u32 length = 0;  // 0: not this kernel's
  if (lane < WS_WARP_SEGMENTS && s < count) {
    start = offset_at(offsets, wide, s);
    const u64 l = offset_at(offsets, wide, s + 1) - start;
    length = l <= max_length ? (u32)l : 0u;
  }
  const u32 size_class = length != 0u ? segment_size_class(length) : 8u;
#define WS_CLASS(L)                                                                                        \
  {                                                                                                        \
    const u32 members = warp_ballot(size_class == L);                                                      \
    if (members != 0u)                                                                                     \
      ws_sort_class<L>(keys_in, keys_out, values_in, values_out, members, start, length, positions, flip, lane); \
  }
  WS_CLASS(0)
  WS_CLASS(1)
  WS_CLASS(2)
  WS_CLASS(3)
  WS_CLASS(4)
  WS_CLASS(5)
  WS_CLASS(6)
  WS_CLASS(7)
#undef WS_CLASS
}
#endif  // GS_CUDA
