#pragma once
// OpenCL backend: clBuildProgram from the embedded sources; binaries cached on disk.
#include <string>
#include <vector>

#include "runtime/device.hpp"

namespace gpusort::rt {

// Every device of every OpenCL platform; empty (never throws) if there is no ICD or no loader.
std::vector<DeviceDescription> opencl_enumerate_devices();
// How many devices each OpenCL platform has (index = P of "opencl:P:D"); empty without an ICD.
std::vector<std::size_t> opencl_device_counts();
// Why OpenCL can offer no device at all ("" where the ICD loader is installed): "no OpenCL loader
// (libOpenCL.so.1) found; install an ICD loader such as ocl-icd-libopencl1".
std::string opencl_unavailable_reason();
// "opencl:P:D": platform P, device D. Throws Error(unsupported) if it does not exist.
DevicePtr opencl_open_device(int platform, int device);
// The device `device` (a cl_device_id) of the caller's cl_context `context`, sharing that context
// (retained) so the caller's cl_mem and queues work with it. Throws Error(invalid_argument) if the
// device is not in the context.
DevicePtr opencl_open_shared(void* context, void* device);

}  // namespace gpusort::rt
