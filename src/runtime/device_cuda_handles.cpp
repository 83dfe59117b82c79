// The defaults of Device's raw-CUDA-handle calls (runtime/device.hpp): every backend but CUDA has none.
#include "runtime/device.hpp"

namespace gpusort::rt {

std::uint64_t Device::cuda_address(const Buffer&) {
  throw Error(errc::unsupported, description().id + " is not a CUDA device: no CUDA address");
}
void* Device::cuda_stream(Queue*) {
  throw Error(errc::unsupported, description().id + " is not a CUDA device: no CUDA stream");
}
void Device::with_cuda_context(const std::function<void()>&) {
  throw Error(errc::unsupported, description().id + " is not a CUDA device: no CUDA context");
}

}  // namespace gpusort::rt
