#pragma once
// One sort of data already in device buffers, by an algorithm already chosen and checked: what
// host sorts (once their data is uploaded) and device sorts share.
#include <cstddef>
#include <cstdint>

#include "algorithms/algorithm.hpp"
#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"
#include "runtime/device.hpp"

namespace gpusort::detail {

// The temporary storage `algorithm` needs for this sort; Error(unsupported) if it does not say.
std::uint64_t needed_temp_bytes(const algo::Algorithm& algorithm, rt::Device& device, key_type type, std::uint64_t n,
                                std::size_t value_bytes, const SortOptions& options);

// The device time between the sort's first and last command, and how many kernel programs this
// process compiled meanwhile (their compile time falls inside the device time: the device waits
// while the host compiles).
struct DeviceRun {
  double ms = 0;
  std::uint64_t compiled = 0;
};
// temp_storage: caller-supplied temporary storage, checked against the algorithm's needs before
// anything runs; nullptr = temporaries from the device's pool.
DeviceRun run_on_device(rt::Device& device, const algo::Algorithm& algorithm, key_type type, std::uint64_t n,
                        rt::Buffer& keys, rt::Buffer* values, std::size_t value_bytes, const SortOptions& options,
                        rt::Buffer* temp_storage = nullptr);

}  // namespace gpusort::detail
