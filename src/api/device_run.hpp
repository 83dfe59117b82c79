#pragma once
// One sort of data already in device buffers, as planned (algorithms/planner.hpp): what host sorts
// (once their data is uploaded) and device sorts share.
#include <cstdint>

#include "algorithms/planner.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// The temporary storage the plan's algorithm needs for the whole request; Error(unsupported) if
// the algorithm does not say.
std::uint64_t needed_temp_bytes(const algo::Plan& plan, rt::Device& device);
// ... of `algorithm` sorting n elements of the request's kind: one step of a plan cut in pieces.
std::uint64_t needed_temp_bytes(const algo::Algorithm& algorithm, rt::Device& device, key_type type, std::uint64_t n,
                                std::size_t value_bytes, const SortOptions& options);

// The device time between the sort's first and last command, and how many kernel programs this
// process compiled meanwhile (their compile time falls inside the device time: the device waits
// while the host compiles).
struct DeviceRun {
  double ms = 0;
  std::uint64_t compiled = 0;
};
// Sorts the plan's request in keys (and values), in place. temp_storage: caller-supplied temporary
// storage, checked against the algorithm's needs before anything runs; nullptr = temporaries from
// the device's pool.
DeviceRun run_on_device(rt::Device& device, const algo::Plan& plan, rt::Buffer& keys, rt::Buffer* values,
                        rt::Buffer* temp_storage = nullptr);

}  // namespace gpusort::detail
