// Segmented sorts by offsets, the binned bin's long segments (src/algorithms/segmented/segmented_binned.cpp):
// the segments too long for the tile bin's window are listed on the device, then sorted by a fixed
// grid of work-groups, one segment at a time each, so that no count ever goes back to the host and
// no launch's size depends on the data (the sort can be captured in a CUDA graph).
//
// segmented_bin_long: one work-item per segment; a segment of more than `window` keys appends its
// index to `list` (work[0] counts them), or, above `huge_min` keys, to `huge_list` (work[2]): on CUDA
// those are sorted by several blocks each (segmented_onesweep.cl's listed kernels), not by one group. The list's order is the atomics' order, which does not
// matter: segments are sorted independently of each other.
//
// segmented_long_sort: each work-group takes the next list entry (work[1], an atomic ticket) until
// the list is used up, and sorts that segment by LSD digit passes of RADIX_BITS over global memory
// (the digits of ordered_key(k, flip), as radix_single_group.cl). One pass:
//   1. the segment's digit counts (each work-item's own column of counters, hist) are scanned
//      (radix_group_digits.h): each digit's first position in the segment. A digit that is the same
//      for every key skips the pass (nothing moves). The counts were made while the previous pass
//      wrote its keys; the first pass, and one after a skipped pass, reads the segment once for them.
//   2. the segment is walked tile by tile (`tile` keys, in order): a tile is loaded into local memory,
//      sorted there by the digit with one stable counting pass (radix_group_digits.h again), and
//      written out striped, each key to its digit's running position plus its rank among the
//      tile's keys of that digit (the next pass's digit counted on the way); then the running
//      positions advance by the tile's counts.
// So a pass reads and writes each key once, where most pass through the segment more than once.
// Tiles are taken in order and ranked stably, so each pass is stable and the whole sort is too;
// descending is the exact reverse order of ordered_key (keys.h), so equal keys keep their order.
// Passes alternate between the temporary buffers and the output (the first one that moves reads
// the input and writes the temporaries, so the input is only read, and in place works alike); a
// segment that ends in the temporaries, or never moved, is copied to the output at the end.
// Values travel with the keys; an argsort's values (positions, VALUE_BYTES 4 or 8) are made when
// the input is read: the key's position within its segment.
// A segment holds fewer than 2^32 keys (the counters are u32; the planner takes this bin below 2^32
// keys in all). Empty and one-key segments never reach the list (they fit every window).
//
// Local memory (dynamic, laid out by the host, segmented_binned.cpp; `slots` a multiple of 16):
// values[2][slots] (pairs and argsort), keys[2][slots], counters[SG_PAD(RADIX * GROUP_SIZE)] u32 (the
// tile's), hist[SG_PAD(RADIX * GROUP_SIZE)] u32 (the segment's), partial[GROUP_SIZE] u32, then
// LONG_CONTROL_WORDS u32 (two skip words, the ticket, the running
// digit positions[RADIX], the tile's digit starts[RADIX + 1]).
//
// Specialised by keys.h's defines, RADIX_BITS (4) and GROUP_SIZE (a multiple of RADIX, power of
// two); the offsets' width is an argument. No sub-group or warp intrinsics: OpenCL (PoCL) and CUDA.
// NVRTC-CHECK-DEFINES: RADIX_BITS=4 GROUP_SIZE=256
#include "radix_group_digits.h"
#include "segmented_offsets.h"

#define LONG_CONTROL_WORDS (4 + 2 * RADIX + 1)

// offsets_buffer: count + 1 offsets from element `first`; work[0] the list's length, work[2] the
// huge list's (both zero before). Segments of more than huge_min keys go to huge_list instead, for
// the listed onesweep (kernels/segmented_onesweep.cl; huge_min ~0 where it does not run).
// On CUDA (segmented_binned.cpp):
//   - class_max != 0: a segment of class_min + 1 to class_max keys goes to the block class list of
//     its size (and to no other list, though class_max may exceed the window), 2^(class_lo_log + c - 1) + 1 to 2^(class_lo_log + c) keys (c from 0): entry
//     work[4 + c] of the list at class_lists + c * class_cap (segmented_rows_block.cl's listed kernels);
//   - short_max != 0 (the warps and the block classes sort every segment of up to short_max keys): a
//     segment of short_max + 1 to window keys sets the word of own_windows (zero before) for the
//     tile window it starts in, which the tiles then sort; the tiles of every other window have
//     nothing of their own to sort (segmented_tiles_offsets).
KERNEL segmented_bin_long(GLOBAL const u32* offsets_buffer, u64 first, u32 wide, u64 count, u64 window, u64 huge_min,
                          GLOBAL u32* work, GLOBAL u64* list, GLOBAL u64* huge_list, u64 short_max,
                          GLOBAL u32* own_windows, u64 class_min, u64 class_max, u32 class_lo_log, u64 class_cap,
                          GLOBAL u64* class_lists) {
  const u64 s = GLOBAL_ID();
  if (s >= count) return;
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  const u64 start = offset_at(offsets, wide, s), length = offset_at(offsets, wide, s + 1) - start;
  if (length > class_min && length <= class_max) {
    const u32 c = segment_size_class(length) - class_lo_log;
    class_lists[c * class_cap + ATOMIC_ADD_U32(&work[4 + c], 1u)] = s;
    return;  // (the classes may reach past the window: such segments are on no other list)
  }
  if (short_max != 0 && length > short_max && length <= window) own_windows[start / window] = 1u;
  if (length > huge_min)
    huge_list[ATOMIC_ADD_U32(&work[2], 1u)] = s;
  else if (length > window)
    list[ATOMIC_ADD_U32(&work[0], 1u)] = s;
}

#if HAS_VALUES
// The value the key at position i of its segment starts with: its index for an argsort (made; only
// VALUE_BYTES 4 or 8 are indices), else vs[i].
DEVICE_FN value_t long_first_value(GLOBAL const value_t* vs, u32 i, int make_positions) {
#if VALUE_BYTES == 4 || VALUE_BYTES == 8
  if (make_positions) return (value_t)i;
#endif
  return vs[i];
}
#endif

// Sorts the n keys (and values) of one segment; src/dst per pass as the file's comment says. Every
// work-item of the group calls it.
DEVICE_FN void long_segment_sort(LOCAL u8* smem, GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out,
                                 GLOBAL const value_t* values_in, GLOBAL value_t* values_out, GLOBAL key_t* keys_temp,
                                 GLOBAL value_t* values_temp, u64 start, u32 n, u32 positions, okey_t flip, u32 tile,
                                 u32 slots) {
  const u32 t = LOCAL_ID();
  LOCAL value_t* vsrc = (LOCAL value_t*)smem;
  LOCAL value_t* vdst = vsrc + (HAS_VALUES ? slots : 0u);
  LOCAL key_t* ksrc = (LOCAL key_t*)(vdst + (HAS_VALUES ? slots : 0u));
  LOCAL key_t* kdst = ksrc + slots;
  LOCAL u32* counters = (LOCAL u32*)(kdst + slots);  // the tile's digit counts
  LOCAL u32* hist = counters + SG_PAD(SG_ENTRIES);    // the segment's digit counts of a pass
  LOCAL u32* partial = hist + SG_PAD(SG_ENTRIES);
  LOCAL u32* control = partial + GROUP_SIZE;
  LOCAL u32* skip = control;           // passes over the segment
  LOCAL u32* tile_skip = control + 1;  // set by the tiles' scans, never read
  LOCAL u32* running = control + 4;    // each digit's next position in the segment
  LOCAL u32* starts = running + RADIX; // each digit's first position in the sorted tile, then the tile's size

  if (t == 0) *skip = 0;  // read after the first scan's opening barrier
  u32 where = 0;          // the segment's current place: 0 the input, 1 the temporaries, 2 the output
  int counted = 0;        // hist holds this pass's counts, made by the previous pass
  for (u32 pass = 0; pass < RADIX_PASSES; ++pass) {
    const u32 shift = pass * RADIX_BITS;
    GLOBAL const key_t* ks = (where == 0 ? keys_in : where == 1 ? (GLOBAL const key_t*)keys_temp : keys_out) + start;
    GLOBAL key_t* kd = (where == 1 ? keys_out : keys_temp) + start;
#if HAS_VALUES
    GLOBAL const value_t* vs =
        (where == 0 ? values_in : where == 1 ? (GLOBAL const value_t*)values_temp : values_out) + start;
    GLOBAL value_t* vd = (where == 1 ? values_out : values_temp) + start;
    const int make_positions = where == 0 && positions;
#endif

    if (!counted) {
      group_digits_clear(hist, t);
      for (u32 i = t; i < n; i += GROUP_SIZE) hist[SG_PAD(radix_digit(ks[i], flip, shift) * GROUP_SIZE + t)] += 1u;
    }
    if (group_digits_scan(hist, partial, skip, n, pass)) {  // one digit throughout: nothing moves
      counted = 0;
      continue;
    }
    if (t < RADIX) running[t] = hist[SG_PAD(t * GROUP_SIZE)];  // work-item 0's column: the digit's start
    BARRIER();
    const int count_next = pass + 1 < RADIX_PASSES;
    if (count_next) group_digits_clear(hist, t);  // t's own column (column 0 was read before the barrier)

    for (u32 at = 0; at < n; at += tile) {
      const u32 m = gs_min_u32(tile, n - at);
      for (u32 i = t; i < m; i += GROUP_SIZE) {  // striped: coalesced reads
        ksrc[SG_PAD(i)] = ks[at + i];
#if HAS_VALUES
        vsrc[SG_PAD(i)] = long_first_value(vs, at + i, make_positions);
#endif
      }
      group_digits_clear(counters, t);
      BARRIER();
      const u32 per = (m + GROUP_SIZE - 1) / GROUP_SIZE;
      const u32 begin = gs_min_u32(m, t * per);
      const u32 end = gs_min_u32(m, begin + per);
      for (u32 p = begin; p < end; ++p)
        counters[SG_PAD(radix_digit(ksrc[SG_PAD(p)], flip, shift) * GROUP_SIZE + t)] += 1u;
      group_digits_scan(counters, partial, tile_skip, m, 0);  // a tile of one digit is still written out
      if (t < RADIX) starts[t] = counters[SG_PAD(t * GROUP_SIZE)];
      if (t == 0) starts[RADIX] = m;
      BARRIER();  // the starts read before work-item 0's scatter moves its column
      for (u32 p = begin; p < end; ++p) {  // stable: chunks in work-item order, each in order
        const key_t k = ksrc[SG_PAD(p)];
        const u32 e = SG_PAD(radix_digit(k, flip, shift) * GROUP_SIZE + t);
        const u32 to = counters[e];
        counters[e] = to + 1u;
        kdst[SG_PAD(to)] = k;
#if HAS_VALUES
        vdst[SG_PAD(to)] = vsrc[SG_PAD(p)];
#endif
      }
      BARRIER();
      for (u32 i = t; i < m; i += GROUP_SIZE) {  // the tile's keys of one digit land side by side
        const key_t k = kdst[SG_PAD(i)];
        const u32 d = radix_digit(k, flip, shift);
        const u32 to = running[d] + (i - starts[d]);
        kd[to] = k;
        if (count_next) hist[SG_PAD(radix_digit(k, flip, shift + RADIX_BITS) * GROUP_SIZE + t)] += 1u;
#if HAS_VALUES
        vd[to] = vdst[SG_PAD(i)];
#endif
      }
      BARRIER();
      if (t < RADIX) running[t] += starts[t + 1] - starts[t];  // read again after the next tile's barriers
    }
    counted = count_next;
    where = where == 1 ? 2u : 1u;
    GLOBAL_BARRIER();  // this pass's writes seen by the whole group before the next pass reads them
  }

  if (where == 2) return;
  GLOBAL const key_t* ks = (where == 0 ? keys_in : (GLOBAL const key_t*)keys_temp) + start;
#if HAS_VALUES
  GLOBAL const value_t* vs = (where == 0 ? values_in : (GLOBAL const value_t*)values_temp) + start;
  const int make_positions = where == 0 && positions;
#endif
  for (u32 i = t; i < n; i += GROUP_SIZE) {
    keys_out[start + i] = ks[i];
#if HAS_VALUES
    values_out[start + i] = long_first_value(vs, i, make_positions);
#endif
  }
}

// A fixed grid: every group takes list entries (work[1], a ticket) until work[0] of them are taken.
// work[1] zero before; keys_temp / values_temp as large as the keys / values (a segment's range in
// them is its own).
KERNEL segmented_long_sort(GLOBAL const key_t* keys_in, GLOBAL key_t* keys_out, GLOBAL const value_t* values_in,
                           GLOBAL value_t* values_out, GLOBAL key_t* keys_temp, GLOBAL value_t* values_temp,
                           GLOBAL const u32* offsets_buffer, u64 first, u32 wide, GLOBAL u32* work,
                           GLOBAL const u64* list, u32 positions, okey_t flip, u32 tile, u32 slots GS_DYNAMIC_LOCAL) {
  GS_DECLARE_DYNAMIC_LOCAL(u8, smem);
  const u32 t = LOCAL_ID();
  GLOBAL const u32* offsets = offsets_buffer + (wide ? 2 * first : first);
  LOCAL u32* ticket = (LOCAL u32*)((LOCAL key_t*)((LOCAL value_t*)smem + (HAS_VALUES ? 2 * slots : 0u)) + 2 * slots) +
                      2 * SG_PAD(SG_ENTRIES) + GROUP_SIZE + 2;
  const u32 listed = work[0];  // written by segmented_bin_long, an earlier launch
  if (listed == 0u) return;    // nothing listed (most requests): not even a ticket
  for (;;) {
    if (t == 0) *ticket = ATOMIC_ADD_U32(&work[1], 1u);
    BARRIER();
    const u32 entry = *ticket;
    BARRIER();  // every work-item has its ticket before work-item 0 may take the next
    if (entry >= listed) return;
    const u64 s = list[entry];
    const u64 start = offset_at(offsets, wide, s);
    const u32 n = (u32)(offset_at(offsets, wide, s + 1) - start);
    long_segment_sort(smem, keys_in, keys_out, values_in, values_out, keys_temp, values_temp, start, n, positions,
                      flip, tile, slots);
  }
}
