#pragma once
// The binned bin's short segments on CUDA: the segments of at most the tuning row's
// binned_warp_max_length keys (128 at most), up to 32 to a warp, sorted by size class in bitonic networks
// in registers, several segments at once where they are short (kernels/segmented_warp_segments.cl). The tile bin is given the same length and leaves those
// segments alone (segmented_tiles_sort's short_max), so each segment is written by one kernel.
// Keys alone, pairs, argsort (positions local to the segment, 4 or 8 bytes); both orders; stable;
// no temporaries, nothing read back. Internal: segmented_binned.cpp calls it.
#include <cstdint>
#include <string>

#include "algorithms/segmented/segmented_job.hpp"
#include "gpusort/device.hpp"

namespace gpusort::algo {

// Segments of at most this many keys are sorted in warps on the device (0: the kernel does not run:
// not CUDA, or the segmented tuning row's binned_warp_max_length is 0); the policy override's
// warp_segments_max replaces the row's. Never above 128.
std::uint32_t segmented_warp_segments_max(const DeviceDescription& desc);

// Sorts job's segments (by offsets) of 1 to max_length keys (1 to 128), leaving every other
// segment untouched. Reads job.sort.keys_in / values_in where set, makes an argsort's positions
// where job.sort.values_are_positions says so (and leaves the flag for the bins that run after it).
void segmented_warp_segments_sort(SegmentedJob& job, std::uint32_t max_length);

// The launch in words (gpusort plan).
std::string segmented_warp_segments_plan_step(const DeviceDescription& desc, std::uint64_t count,
                                              std::uint32_t max_length);

}  // namespace gpusort::algo
