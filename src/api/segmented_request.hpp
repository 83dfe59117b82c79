#pragma once
// What the segmented entry points (gpusort/segmented.hpp) share: the request a Segments makes, the
// host offsets' checks, and the segments where the device reads them.
#include <cstdint>

#include "algorithms/segmented/segmented_job.hpp"
#include "gpusort/plan.hpp"
#include "gpusort/segmented.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// `base` (type, n, value_bytes, positions, where, options) with the shape of `segments`: rows and
// row_length, or the count and width of offsets. A default Segments is one row of n.
SortRequest segmented_request(const Segments& segments, SortRequest base);

// Segments as given: host offsets count + 1 of them, starting at 0, ending at n, non-decreasing
// (read on the host); device offsets a view. Error(invalid_argument) naming the first bad one,
// before anything runs.
void check_segments_given(const Segments& segments, std::uint64_t n);

// The segments where the device reads them: host offsets uploaded (blocking, on the device's
// default queue, into a buffer of its temporary pool), device offsets wrapped, rows as they are.
struct DeviceSegments {
  rt::BufferPtr offsets;
  algo::SegmentShape shape;
};
DeviceSegments device_segments(rt::Device& device, const Segments& segments, const SortRequest& request);

}  // namespace gpusort::detail
