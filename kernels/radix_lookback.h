// Decoupled look-back (radix_onesweep passes, CUDA and NVIDIA's OpenCL; Merrill & Garland's single-pass scan as used by
// Onesweep): each tile publishes, per digit, a status word status[tile][digit] = 30-bit count |
// AGGREGATE (this tile's count) or INCLUSIVE (the count of every key of that digit up to and including
// this tile). A tile sums its predecessors' words, walking back until an INCLUSIVE one. Tile 0's
// words are INCLUSIVE from the start (they hold the digits' global offsets), so every walk ends.
// Counts are 30-bit: the host uses this path for n < 2^30.
//
// ONESWEEP_LOOKBACK_SNAPSHOT = W > 0 (host: 64-bit keys): halfway through the ranking each thread
// copies its digit's status words of the W predecessors into shared memory with cp.async (no
// registers held); after the ranking the look-back sums the published ones from there and reads live
// only beyond them. Nsight Compute (H200, 2^28) put 15-19% of the pass's stall samples on the live
// walk, ~5-7 dependent global round trips per tile; only 64-bit keys gained (lab/notes/radix-tuning.md).
// Words copied mid-ranking are final once published (counts never change), so a
// stale copy (not yet published) only means "read on live". CUDA only (cp.async from C++).
#ifndef GPUSORT_RADIX_LOOKBACK_H
#define GPUSORT_RADIX_LOOKBACK_H
#include "radix_common.h"
#include "radix_status.h"

#if ONESWEEP_LOOKBACK_SNAPSHOT && !GS_CUDA
#error "the look-back snapshot copies with cp.async: CUDA only"
#endif

// snap[j][d] = status[tile - 1 - j][d], copied asynchronously (4-byte cp.async, .ca: the words are
// re-read live past the copy anyway). Thread t copies digit t's words.
DEVICE_FN void radix_lookback_snapshot_issue(LOCAL u32* snap, GLOBAL const u32* status, u32 tile, u32 t) {
#if ONESWEEP_LOOKBACK_SNAPSHOT
  if (tile > 0) {
#pragma unroll
    for (u32 j = 0; j < ONESWEEP_LOOKBACK_SNAPSHOT; ++j)
      if (tile > j) {
        const u32 dst = (u32)__cvta_generic_to_shared(snap + j * RADIX + t);
        const u32* src = status + (u64)(tile - 1u - j) * RADIX + t;
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst), "l"(src) : "memory");
      }
    asm volatile("cp.async.commit_group;" ::: "memory");
  }
#endif
}

// Tile `tile` > 0, digit t: exclusive + the count of digit-t keys before this tile (the predecessors'
// words down to the first INCLUSIVE one). column = status + t: the digit's words, RADIX apart.
DEVICE_FN u32 radix_lookback(const volatile GLOBAL u32* column, const LOCAL u32* snap, u32 tile, u32 t,
                             u32 exclusive) {
  // live words read at once (windows of 2-16 were slower, lab/notes/radix-tuning.md). The
  // window loop stays for its one word: it is the measured form, and straight-line forms of the walk
  // changed ptxas's register allocation of the whole pass (u32/u32, last packed pass).
#define LOOKBACK_LIVE_WINDOW 1u
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
  // live words, LOOKBACK_LIVE_WINDOW at a time; spin while the next predecessor has published nothing
  for (;;) {
    u32 s[LOOKBACK_LIVE_WINDOW];
#pragma unroll
    for (u32 j = 0; j < LOOKBACK_LIVE_WINDOW; ++j) s[j] = next > j ? column[(u64)(next - 1u - j) * RADIX] : 0u;
    u32 used = 0;  // leading published words of the window, summed
    bool done = false;
#pragma unroll
    for (u32 j = 0; j < LOOKBACK_LIVE_WINDOW; ++j) {
      if (!done && used == j && (s[j] & (STATUS_AGGREGATE | STATUS_INCLUSIVE)) != 0u) {
        exclusive += s[j] & STATUS_VALUE;
        used = j + 1u;
        done = (s[j] & STATUS_INCLUSIVE) != 0u;  // tile 0's word is inclusive: the walk ends there
      }
    }
    if (done) break;
    next -= used;
  }
#undef LOOKBACK_LIVE_WINDOW
  return exclusive;
}

#endif  // GPUSORT_RADIX_LOOKBACK_H
