#pragma once
// CUDA backend: kernels compiled by NVRTC to a cubin for the device's own architecture, loaded and
// launched through the driver API. libcuda and libnvrtc are opened with dlopen at first use, so a
// machine without CUDA simply lists no CUDA devices.
#include <string>
#include <vector>

#include "runtime/device.hpp"

namespace gpusort::rt {

// Empty when the driver or NVRTC is missing or no device is present; never throws.
std::vector<DeviceDescription> cuda_enumerate_devices();
// ordinal: N of "cuda:N". Throws Error(unsupported) if CUDA is unavailable or N is out of range.
DevicePtr cuda_open_device(int ordinal);
// Why CUDA is unavailable ("" if it is available); for `gpusort devices --verbose`.
std::string cuda_unavailable_reason();

}  // namespace gpusort::rt
