#pragma once
// A sort of host memory as planned (algorithms/planner.hpp): upload, sort, download in one step
// through pinned staging (api/sort_pipeline.hpp), or the partition sort when the data is larger
// than the device allows (api/out_of_core.hpp).
#include <cstddef>
#include <optional>

#include "algorithms/planner.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// gpusort::sort_host once planned (a host plan: nothing to do, one piece or partitioned). In one
// step, the caller's arrays change only once the sort on the device has succeeded (a device lost
// during the final download leaves them part written).
SortReport sort_host_with(rt::Device& device, const algo::Plan& plan, void* keys, void* values);

// A record sort of host memory as planned (api/records.cpp): also what sort_host_with runs for
// complex128 keys, which the planner plans as 16-byte records; their values (or an argsort's
// indices 0..n-1 made on the host), RecordsPlan::values, are sorted with them in `values`.
SortReport sort_host_records(rt::Device& device, const algo::Plan& plan, void* records, void* values = nullptr);

// argsort_host_in_one_step for complex128 keys planned as records (api/records.cpp): in one piece
// on the device, the indices being the passes' record index; nullopt on any other path.
std::optional<SortReport> argsort_host_records_in_one_step(rt::Device& device, const algo::Plan& plan,
                                                           const void* keys, void* indices, void* sorted_keys);

// argsort of host keys in one step, where they fit the device: the keys are uploaded from where
// they lie (never written), the indices (4 or 8 bytes) made on the device and only they come back
// (into `indices`, once the sort has succeeded): for u32 keys with 8-byte indices 12 bytes per key
// cross the link instead of 24. sorted_keys (null: not wanted) receives the sorted keys from the
// same sort, downloaded beside the indices; it may be `keys` itself. `plan` is an argsort's
// (SortRequest::positions); nullopt where it is partitioned (the caller then sorts host-made
// indices through sort_host_with).
std::optional<SortReport> argsort_host_in_one_step(rt::Device& device, const algo::Plan& plan, const void* keys,
                                                   void* indices, void* sorted_keys = nullptr);

}  // namespace gpusort::detail
