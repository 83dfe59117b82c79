#pragma once
// A sort of host memory once its request has been validated and its algorithm chosen and checked
// (api/option_checks.hpp): upload, sort, download in one step through pinned staging
// (api/sort_pipeline.hpp), or the partition sort when the data is larger than the device allows
// (api/out_of_core.hpp).
#include <cstddef>
#include <optional>

#include "algorithms/algorithm.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "gpusort/sort.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// gpusort::sort_host after its checks. In one step, the caller's arrays change only once the sort
// on the device has succeeded (a device lost during the final download leaves them part written).
SortReport sort_host_with(rt::Device& device, const algo::Algorithm& algorithm, key_type type, void* keys,
                          std::size_t n, void* values, std::size_t value_bytes, const SortOptions& options);

// argsort of host keys in one step, where they fit the device: the keys are uploaded from where
// they lie (never written), the indices (4 or 8 bytes) made on the device and only they come back
// (into `indices`, once the sort has succeeded): for u32 keys with 8-byte indices 12 bytes per key
// cross the link instead of 24. nullopt where the data needs more than one step (the caller then
// sorts host-made indices through sort_host_with).
std::optional<SortReport> argsort_host_in_one_step(rt::Device& device, const algo::Algorithm& algorithm, key_type type,
                                                   const void* keys, std::size_t n, void* indices,
                                                   std::size_t index_bytes, const SortOptions& options);

}  // namespace gpusort::detail
