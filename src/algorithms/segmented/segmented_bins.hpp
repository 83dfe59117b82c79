#pragma once
// The bins built from the 1-D sorts, which run on every backend (segmented_sort.hpp dispatches to
// them): each sorts every segment of the job as segmented_job.hpp says, with the plan's algorithm.
#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/planner.hpp"
#include "algorithms/segmented/segmented_job.hpp"

namespace gpusort::algo {

// segmented_portable.cpp: any segments, uniform or by offsets, any lengths. The positions
// 0..n-1 are sorted beside a copy of the keys by the plan's algorithm (stable where it is), each
// position's segment found on the device (p / length, or a binary search in the offsets), the
// (segment, position) pairs sorted by segment with the stable 1-D radix (the digits equal
// everywhere skipped), and the keys and values gathered from the input by position (argsort: the
// position minus its segment's start).
void segmented_portable(SegmentedJob& job, const Plan& plan);
std::uint64_t segmented_portable_temp_bytes(const Plan& plan, rt::Device& device);
std::vector<std::string> segmented_portable_steps(const Plan& plan, rt::Device& device);

// segmented_per_row.cpp: uniform rows whose ranges cut into sub-buffers (rows_cut_into_views), or
// one segment: a 1-D sort of each row where it lies, one after the other; an argsort's positions
// are each row's own, so they are local already.
void segmented_per_row(SegmentedJob& job, const Plan& plan);
std::uint64_t segmented_per_row_temp_bytes(const Plan& plan, rt::Device& device);
std::vector<std::string> segmented_per_row_steps(const Plan& plan, rt::Device& device);

}  // namespace gpusort::algo
