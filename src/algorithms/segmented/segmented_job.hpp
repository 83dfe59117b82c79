#pragma once
// What every segmented-sort bin receives (gpusort/segmented.hpp): a one-array job (SortJob: key type,
// buffers, options, temporaries, programs) and how its n elements are cut into segments.
// Each bin sorts every segment it is given on its own, leaving the result in job.sort.keys /
// job.sort.values (read from keys_in / values_in when those are set, which are then never written),
// stable within each segment when the options ask for it, and never reads anything back to the host.
// An argsort (sort.values_are_positions) gets each key's index within its segment in job.sort.values,
// and the bin clears the flag (algo::run_segmented, segmented_sort.hpp, checks it).
// The bin is chosen by the planner (segmented_policy.hpp) and called by run_segmented with the plan.
#include <cstdint>

#include "algorithms/algorithm.hpp"
#include "algorithms/segmented/segmented_policy.hpp"
#include "runtime/device.hpp"

namespace gpusort::algo {

struct SegmentShape {
  std::uint64_t count = 1;       // segments
  std::uint64_t row_length = 0;  // uniform rows: every segment's length; 0: offsets below
  // Offsets on the device (count + 1 entries of offset_bytes, 4 or 8, starting offsets_byte_offset
  // bytes into the buffer): segment s is [offsets[s], offsets[s + 1]).
  rt::Buffer* offsets = nullptr;
  std::uint64_t offsets_byte_offset = 0;
  std::size_t offset_bytes = 8;

  bool uniform() const { return row_length != 0 || offsets == nullptr; }
};

// The buffers a bin's kernels read and write: the keys (and values) where they come from, the input
// of an out-of-place sort or else the output, and where they go. Where no values are read (keys
// alone, or an argsort whose positions the kernels make while values_are_positions is set) the
// output values stand in for the input's, never read.
struct SegmentedBuffers {
  rt::Buffer &keys_in, &keys_out, &values_in, &values_out;
};
inline SegmentedBuffers segmented_buffers(SortJob& sort) {
  rt::Buffer& values_out = sort.values_or_keys();
  rt::Buffer& values_in =
      sort.values_are_positions || !sort.values ? values_out : sort.values_in ? *sort.values_in : *sort.values;
  return {sort.keys_in ? *sort.keys_in : sort.keys, sort.keys, values_in, values_out};
}

struct SegmentedJob {
  SortJob& sort;  // sort.values_are_positions: argsort, each value its key's position in its segment
  SegmentShape segments;
  // Set by run_segmented: the bin that sorted (the plan's, or tiles or portable where the plan's
  // is tiles_or_portable), for the report's name.
  SegmentedBin ran = SegmentedBin::portable;
};

}  // namespace gpusort::algo
