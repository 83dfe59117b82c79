// Device ids, enumeration across backends and the default choice.
#include <cstdlib>
#include <string>

#include "runtime/cuda/cuda_backend.hpp"
#include "runtime/device.hpp"
#include "runtime/opencl/opencl_backend.hpp"

namespace gpusort::rt {
namespace {

int parse_index(const std::string& text, const std::string& id) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw Error(errc::invalid_argument, "bad device id '" + id + "' (expected cuda:N or opencl:P:D)");
  return std::stoi(text);
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
    std::string why = cuda_unavailable_reason();
    throw Error(errc::unsupported, "no device found: no OpenCL platform has a device" +
                                       (why.empty() ? std::string() : " and CUDA is unavailable (" + why + ")"));
  }
  if (id.rfind("cuda:", 0) == 0) return cuda_open_device(parse_index(id.substr(5), id));
  if (id.rfind("opencl:", 0) == 0) {
    auto rest = id.substr(7);
    auto colon = rest.find(':');
    if (colon == std::string::npos) throw Error(errc::invalid_argument, "bad device id '" + id + "' (expected opencl:P:D)");
    return opencl_open_device(parse_index(rest.substr(0, colon), id), parse_index(rest.substr(colon + 1), id));
  }
  throw Error(errc::invalid_argument, "unknown device id '" + id + "' (expected cuda:N or opencl:P:D; see `gpusort devices`)");
}

}  // namespace gpusort::rt
