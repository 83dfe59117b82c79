#pragma once
// A Context is one device that gpusort sorts on. Several contexts (several devices, or several
// on one device) may live in one process.
#include <memory>
#include <string>

#include "gpusort/device.hpp"

namespace gpusort {

namespace rt { class Device; }

class Context {
 public:
  // id empty: $GPUSORT_DEVICE if set, else the best device (CUDA GPU, OpenCL GPU, OpenCL CPU).
  explicit Context(const std::string& device_id = "");
  ~Context();
  Context(Context&&) noexcept;
  Context& operator=(Context&&) noexcept;

  const DeviceDescription& device() const;
  rt::Device& runtime_device() const;  // for the library's own layers and advanced users
  std::shared_ptr<rt::Device> shared_runtime_device() const { return device_; }

 private:
  std::shared_ptr<rt::Device> device_;
};

}  // namespace gpusort
