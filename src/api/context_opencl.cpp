// Contexts made from the caller's OpenCL objects (Context::from_opencl), for sorting the caller's
// cl_mem buffers on its queues (gpusort/native.hpp).
#include "gpusort/context.hpp"
#include "runtime/opencl/opencl_api.hpp"
#include "runtime/opencl/opencl_backend.hpp"
#include "runtime/opencl/opencl_errors.hpp"

namespace gpusort {

Context Context::from_opencl(void* cl_context, void* cl_device_id) {
  return Context(rt::opencl_open_shared(cl_context, cl_device_id));
}

Context Context::from_opencl_queue(void* cl_command_queue) {
  auto queue = static_cast<::cl_command_queue>(cl_command_queue);
  if (!queue) throw Error(errc::invalid_argument, "Context::from_opencl_queue: null queue");
  ::cl_context context = nullptr;
  ::cl_device_id device = nullptr;
  rt::cl_check(rt::cl_api().clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr),
               "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)");
  rt::cl_check(rt::cl_api().clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr),
               "clGetCommandQueueInfo(CL_QUEUE_DEVICE)");
  return from_opencl(context, device);
}

}  // namespace gpusort
