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

// The portable bin's steps around its sorts (kernels/segmented_gather.cl), also taken by the
// complex128 driver (segmented_complex128.hpp): n positions of position_bytes each, segment numbers
// of segment_bytes, the segments of `shape`.
class SegmentedGather {
 public:
  SegmentedGather(rt::Device& device, const SegmentShape& shape, std::size_t position_bytes,
                  std::size_t segment_bytes, std::uint64_t n);
  // segments[i] = the segment that holds position positions[i].
  void segments_of(rt::Buffer& positions, rt::Buffer& segments);
  // out[i] = in[positions[i]], elements of `bytes` (1, 2, 4, 8 or 16).
  void gather(rt::Buffer& in, rt::Buffer& out, std::size_t bytes, rt::Buffer& positions);
  // indices[i] (index_bytes 4 or 8) = positions[i] less the start of its segment, segments[i] (from
  // segments_of; uniform rows do not read it).
  void local_indices(rt::Buffer& positions, rt::Buffer& segments, rt::Buffer& indices, std::size_t index_bytes);

 private:
  rt::Device& device_;
  const SegmentShape& shape_;
  std::uint64_t n_, first_;
  rt::Program& program_;
  rt::Launch launch_;
};
std::uint64_t segmented_portable_temp_bytes(const Plan& plan, rt::Device& device);
std::vector<std::string> segmented_portable_steps(const Plan& plan, rt::Device& device);

// segmented_per_row.cpp: uniform rows whose ranges cut into sub-buffers (rows_cut_into_views), or
// one segment: a 1-D sort of each row where it lies, one after the other; an argsort's positions
// are each row's own, so they are local already.
void segmented_per_row(SegmentedJob& job, const Plan& plan);
std::uint64_t segmented_per_row_temp_bytes(const Plan& plan, rt::Device& device);
std::vector<std::string> segmented_per_row_steps(const Plan& plan, rt::Device& device);

}  // namespace gpusort::algo
