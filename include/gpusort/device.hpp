#pragma once
// What gpusort knows about a device, and which devices it can use. A header of its own so that
// the library's runtime layer can describe devices without depending on Context.
#include <cstdint>
#include <string>
#include <vector>

namespace gpusort {

struct DeviceDescription {
  std::string id;        // what --device / GPUSORT_DEVICE take: "cuda:0", "opencl:0:1"
  std::string backend;   // "cuda" or "opencl"
  std::string name;      // the device's own name
  std::string vendor;    // its maker, as the driver says it ("NVIDIA Corporation" for CUDA devices)
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
  // The instruction set: CUDA's compute capability ("sm_90"), also under NVIDIA's OpenCL where the
  // driver reports it (cl_nv_device_attribute_query); another OpenCL GPU's device name ("gfx90a");
  // "cpu" for CPUs. Empty: not known.
  std::string architecture;
};

// The class of devices tuning rows are chosen by: "cuda:sm_90:H100" (the model read from the name,
// so devices of one architecture can differ), "opencl:nvidia:sm_90" (vendor, then architecture),
// "cpu" for every CPU. Unknown parts read "unknown".
std::string device_class(const DeviceDescription& d);

// Every device gpusort can use, CUDA devices first. Backends that are absent list nothing.
std::vector<DeviceDescription> list_devices();

}  // namespace gpusort
