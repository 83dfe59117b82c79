#include "gpusort/context.hpp"

#include "runtime/device.hpp"

namespace gpusort {

std::vector<DeviceDescription> list_devices() { return rt::enumerate_devices(); }

Context::Context(const std::string& device_id) : device_(rt::open_device(device_id)) {}
Context::Context(std::shared_ptr<rt::Device> device) : device_(std::move(device)) {
  if (!device_) throw Error(errc::invalid_argument, "Context: null device");
}
Context::~Context() = default;
Context::Context(Context&&) noexcept = default;
Context& Context::operator=(Context&&) noexcept = default;

const DeviceDescription& Context::device() const { return device_->description(); }
rt::Device& Context::runtime_device() const { return *device_; }

}  // namespace gpusort
