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

  // A Context on the caller's own OpenCL context and device, so that its cl_mem buffers and
  // command queues can be sorted and ordered with (gpusort/native.hpp). gpusort retains the
  // cl_context and makes its own queue in it. The void* parameters take a cl_context,
  // cl_device_id and cl_command_queue as they are (no OpenCL headers needed here).
  // Throws Error(invalid_argument) when the device is not in the context.
  static Context from_opencl(void* cl_context, void* cl_device_id);
  // The same, with the context and device of one of the caller's queues.
  static Context from_opencl_queue(void* cl_command_queue);
  // A Context on an opened runtime device (the library's own layers).
  explicit Context(std::shared_ptr<rt::Device> device);

  const DeviceDescription& device() const;
  rt::Device& runtime_device() const;  // for the library's own layers and advanced users
  std::shared_ptr<rt::Device> shared_runtime_device() const { return device_; }

 private:
  std::shared_ptr<rt::Device> device_;
};

}  // namespace gpusort
