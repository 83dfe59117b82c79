#pragma once
// The binned bin's longest segments on CUDA, sorted by several blocks each: the segments of more
// than the tuning row's binned_onesweep_min_length keys are listed on the device (segmented_long.cl
// segmented_bin_long), and sorted together by the segmented onesweep's passes over virtual tiles
// (kernels/segmented_onesweep.cl, the listed kernels): one block of prefix sums lays each listed
// segment's tiles and histogram chunks out, one launch counts every listed segment's digits of every
// pass, then one launch per digit sorts all their tiles with one look-back chain per segment. The
// grids are sized from n alone (the most tiles the list could need), so nothing is read back and the
// sort can be captured in a CUDA graph. Keys alone, pairs, argsort (positions local to the segment);
// both orders; stable. Internal: segmented_binned.cpp calls it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/radix_policy.hpp"
#include "algorithms/segmented/segmented_job.hpp"
#include "gpusort/device.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"

namespace gpusort::algo {

struct SegmentedListedPolicy {
  // segments of more keys are listed (0: the listed sort does not run); the binned bin raises it to
  // the tile bin's window, whose segments the tile bin sorts
  std::uint64_t min_length = 0;
  RadixPolicy radix;              // the 1-D onesweep's shape for n keys (never packed pairs or segments)
  std::uint64_t max_entries = 0;  // the most segments the list can hold (n / (min_length + 1), count)
  std::uint64_t max_tiles = 0;    // the passes' grid: the most tiles the listed segments can have
  std::uint64_t span = 0;         // keys per histogram chunk
  std::uint64_t max_chunks = 0;   // the histogram's grid
};

// The policy for n keys in count segments by offsets (min_length 0 where it does not run: no CUDA,
// a run-time order, n of 2^30 or more, or the tuning row's binned_onesweep_min_length is 0).
SegmentedListedPolicy choose_segmented_listed_policy(const DeviceDescription& desc, key_type type,
                                                     std::size_t value_bytes, std::uint64_t n, std::uint64_t count,
                                                     const SortOptions& options);

// The temporaries, taken before the binned bin's first launch that writes the keys.
struct SegmentedListedTemps {
  rt::BufferPtr list;     // the listed segments (u64 each), written by segmented_bin_long
  rt::BufferPtr meta;     // tile and chunk starts, histograms, tile counters, status words
  rt::BufferPtr status2;  // the second status buffer (more than one pass)
};
SegmentedListedTemps take_segmented_listed_temps(SortJob& sort, const SegmentedListedPolicy& p);
std::uint64_t segmented_listed_temp_bytes(const SegmentedListedPolicy& p);

// Sorts the listed segments: work[2] is the list's length on the device (written by
// segmented_bin_long), keys_temp / values_temp as large as the keys / values (a segment's range in
// them is its own). Reads keys_in (values_in), writes sort.keys (values); `positions`: an argsort,
// whose positions it makes (given by the caller, since the tile sort that runs first on the same
// job clears sort.values_are_positions).
void segmented_listed_sort(SegmentedJob& job, const SegmentedListedPolicy& p, SegmentedListedTemps& temps,
                           rt::Buffer& work, rt::Buffer& keys_temp, rt::Buffer& values_temp, bool positions);

// One line per step (gpusort plan).
std::vector<std::string> segmented_listed_plan_steps(const SegmentedListedPolicy& p);

}  // namespace gpusort::algo
