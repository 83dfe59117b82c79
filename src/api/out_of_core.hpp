#pragma once
// Host sorts larger than the device, and host sorts on several devices: the two-pass
// partition sort. See docs/DESIGN-NOTES.md, "Out-of-core host sorts".
#include <cstddef>
#include <cstdint>
#include <span>

#include "algorithms/algorithm.hpp"
#include "algorithms/host_sizing.hpp"
#include "algorithms/planner.hpp"
#include "gpusort/device.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// The partition sort of host data on one or several devices, every step by `algorithm` (the
// request's one choice, checked for all n elements):
//  1. the data are cut into chunks that each fit a device; each chunk is uploaded, sorted and
//     downloaded into a host scratch area (device d takes chunks d, d + D, ...);
//  2. the host finds where the ranks b * m split every sorted chunk (api/run_splits.hpp): bucket b
//     is one slice of each chunk, m elements in all, whatever the duplicates;
//  3. each bucket's slices are uploaded end to end, sorted, and downloaded to their final place in
//     keys/values (device d takes buckets d, d + D, ...).
// Every byte crosses the link twice each way; the host only copies and bisects. Stable when the
// algorithm is (slices go up in chunk order). The caller's arrays are written in pass 3 only; if
// that fails after its first download began, they are restored from the scratch area (every
// element present, order unspecified); before that, they are unchanged.
// `report` arrives with algorithm and device filled in.
// `plan`: a partitioned plan (algorithms/planner.hpp) for these devices, whose chunks it sorts.
SortReport sort_host_partitioned(std::span<rt::Device* const> devices, const algo::Plan& plan, void* keys,
                                 void* values, SortReport report);

}  // namespace gpusort::detail
