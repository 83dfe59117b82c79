// Device ids, enumeration across backends and the default choice.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/cuda/cuda_backend.hpp"
#include "runtime/device.hpp"
#include "runtime/opencl/opencl_backend.hpp"

namespace gpusort::rt {
namespace {

Error malformed(const std::string& id) {
  return Error(errc::invalid_argument, "malformed device id '" + id +
                                           "' (expected cuda:N or opencl:P:D, as gpusort::list_devices() lists them)");
}

// An index of a device id: decimal digits only (no sign, no spaces), at least one. Values too large
// for 64 bits saturate: they are out of range on any machine all the same, and the caller says so.
std::uint64_t parse_index(const std::string& text, const std::string& id) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) throw malformed(id);
  constexpr std::uint64_t kSaturated = ~std::uint64_t(0);
  std::uint64_t value = 0;
  for (char c : text) {
    if (value > (kSaturated - 9) / 10) return kSaturated;
    value = value * 10 + std::uint64_t(c - '0');
  }
  return value;
}

std::string count_of(std::size_t n, const std::string& what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// A well-formed id naming a device this machine does not have.
Error out_of_range(const std::string& id, const std::string& which_index, const std::string& why) {
  return Error(errc::unsupported, "device id '" + id + "': " + which_index + " index out of range (" + why + ")");
}

DevicePtr open_cuda(const std::string& id) {
  const std::uint64_t index = parse_index(id.substr(5), id);
  const std::size_t count = cuda_enumerate_devices().size();
  if (index >= count) {
    const std::string why = cuda_unavailable_reason();
    throw out_of_range(id, "device", "this machine has " + count_of(count, "CUDA device") +
                                         (why.empty() ? "" : "; CUDA is unavailable: " + why));
  }
  return cuda_open_device(static_cast<int>(index));
}

DevicePtr open_opencl(const std::string& id) {
  const std::string rest = id.substr(7);
  const std::size_t colon = rest.find(':');
  if (colon == std::string::npos) throw malformed(id);
  const std::uint64_t platform = parse_index(rest.substr(0, colon), id);
  const std::uint64_t device = parse_index(rest.substr(colon + 1), id);
  const std::vector<std::size_t> devices = opencl_device_counts();
  if (platform >= devices.size()) {
    const std::string why = opencl_unavailable_reason();
    throw out_of_range(id, "platform", "this machine has " + count_of(devices.size(), "OpenCL platform") +
                                           (why.empty() ? "" : "; " + why));
  }
  if (device >= devices[platform])
    throw out_of_range(id, "device", "OpenCL platform " + std::to_string(platform) + " has " +
                                         count_of(devices[platform], "device"));
  return opencl_open_device(static_cast<int>(platform), static_cast<int>(device));
}

}  // namespace

std::vector<DeviceDescription> enumerate_devices() {
  auto out = cuda_enumerate_devices();
  for (auto& d : opencl_enumerate_devices()) out.push_back(std::move(d));
  return out;
}

DevicePtr open_device(const std::string& requested) {
  std::string id = requested;
  if (id.empty())
    if (const char* env = std::getenv("GPUSORT_DEVICE"); env && *env) id = env;
  if (id.empty()) {
    // Best device: a CUDA GPU, else an OpenCL GPU, else any OpenCL device (the CPU through PoCL).
    if (!cuda_enumerate_devices().empty()) return cuda_open_device(0);
    auto cl = opencl_enumerate_devices();
    for (const auto& d : cl)
      if (d.is_gpu) return open_device(d.id);
    if (!cl.empty()) return open_device(cl.front().id);
    std::string opencl_why = opencl_unavailable_reason();
    if (opencl_why.empty()) opencl_why = "no OpenCL platform has a device";
    std::string why = cuda_unavailable_reason();
    throw Error(errc::unsupported, "no device found: " + opencl_why +
                                       (why.empty() ? std::string() : "; CUDA is unavailable (" + why + ")"));
  }
  if (id.rfind("cuda:", 0) == 0) return open_cuda(id);
  if (id.rfind("opencl:", 0) == 0) return open_opencl(id);
  throw malformed(id);
}

}  // namespace gpusort::rt
