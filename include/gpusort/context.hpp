#pragma once
// A Context is one device that gpusort sorts on. Several contexts (several devices, or several
// on one device) may live in one process.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gpusort {

namespace rt { class Device; }

struct DeviceDescription {
  std::string id;        // what --device / GPUSORT_DEVICE take: "cuda:0", "opencl:0:1"
  std::string backend;   // "cuda" or "opencl"
  std::string name;      // the device's own name
  std::string driver;    // driver / platform version
  std::uint64_t global_memory_bytes = 0;
  // Largest single buffer the device can allocate (OpenCL: CL_DEVICE_MAX_MEM_ALLOC_SIZE, often a
  // quarter of the memory; CUDA: the global memory, no lower limit). Host sorts keep every device
  // buffer within it, sorting in chunks when needed. 0 = not known.
  std::uint64_t max_buffer_bytes = 0;
  std::uint64_t local_memory_bytes = 0;  // largest local/shared memory one work-group may use
  std::uint32_t max_work_group_size = 0;
  std::uint32_t compute_units = 0;
  bool is_gpu = false;
};

// Every device gpusort can use, CUDA devices first. Backends that are absent list nothing.
std::vector<DeviceDescription> list_devices();

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
