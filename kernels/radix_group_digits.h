// One work-group's LSD digit pass in local memory, without atomics or sub-group operations: the
// counting scheme of kernels/radix_single_group.cl (one array) and segmented_tiles.cl (many short
// rows per work-group), which each count and scatter their own elements around these two steps.
//
// Work-item t owns the contiguous chunk [t*per, (t+1)*per) of the current order and counts its
// digits into its own column, counters[SG_PAD(d * GROUP_SIZE + t)] (group_digits_clear zeroes that
// column first). group_digits_scan then turns the counters into positions: one exclusive scan in
// digit-major order (d, then t) gives each (digit, work-item) pair its first output position.
// Work-item t scans the RADIX contiguous entries [t*RADIX, (t+1)*RADIX) (all of one digit, since
// GROUP_SIZE is a multiple of RADIX) and a group scan of the GROUP_SIZE partial sums (group_scan.h)
// joins them. The scatter that follows moves each element of t's chunk, in order, to
// counters[SG_PAD(d * GROUP_SIZE + t)]++: stable, since chunks are in work-item order.
//
// Indices into local arrays go through SG_PAD (one spare slot per 32): a work-item's chunk and its
// scan entries are read at a stride of `per` / RADIX elements, which without padding hits one bank.
// Needs radix_common.h's RADIX and GROUP_SIZE (a multiple of RADIX, power of two).
#ifndef GPUSORT_RADIX_GROUP_DIGITS_H
#define GPUSORT_RADIX_GROUP_DIGITS_H
#include "group_scan.h"
#include "radix_common.h"

#if GROUP_SIZE % (1 << RADIX_BITS) != 0
#error "a work-group digit pass needs GROUP_SIZE to be a multiple of RADIX"
#endif

#define SG_PAD(i) ((i) + ((i) >> 5))
#define SG_ENTRIES (RADIX * GROUP_SIZE)
#define SG_THREADS_PER_DIGIT (GROUP_SIZE / RADIX)

// Work-item t's column of counters set to zero (only t reads or writes it before the scan).
DEVICE_FN void group_digits_clear(LOCAL u32* counters, u32 t) {
  for (u32 d = 0; d < RADIX; ++d) counters[SG_PAD(d * GROUP_SIZE + t)] = 0;
}

// Every work-item calls it once it has counted its chunk. counters then hold the first output
// position of each (digit, work-item) pair; partial (GROUP_SIZE words) is scan scratch; *skip
// (0 before the first pass) records a pass whose digit is the same for all n elements, for which
// this returns nonzero in every work-item: nothing moves, the scatter is skipped. `pass` counts the
// work-group's passes from 0. Starts and ends with a barrier.
DEVICE_FN int group_digits_scan(LOCAL u32* counters, LOCAL u32* partial, LOCAL u32* skip, u32 n, u32 pass) {
  const u32 t = LOCAL_ID();
  BARRIER();  // every column counted
  u32 sum = 0;
  for (u32 j = 0; j < RADIX; ++j) sum += counters[SG_PAD(t * RADIX + j)];
  u32 run = group_exclusive_scan_u32(sum, partial);  // partial: the inclusive sums
  if (t < RADIX) {  // digit t's total: the partial sums of its SG_THREADS_PER_DIGIT work-items
    const u32 hi = partial[(t + 1) * SG_THREADS_PER_DIGIT - 1];
    const u32 lo = t == 0 ? 0u : partial[t * SG_THREADS_PER_DIGIT - 1];
    if (hi - lo == n) *skip = pass + 1;
  }
  for (u32 j = 0; j < RADIX; ++j) {
    const u32 e = SG_PAD(t * RADIX + j);
    const u32 c = counters[e];
    counters[e] = run;
    run += c;
  }
  BARRIER();
  return *skip == pass + 1;
}

#endif  // GPUSORT_RADIX_GROUP_DIGITS_H
