#include "runtime/opencl/opencl_errors.hpp"

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

namespace gpusort::rt {

std::string cl_error_name(int status) {
  switch (status) {
#define GS_CASE(x) \
  case x:          \
    return #x;
    GS_CASE(CL_DEVICE_NOT_FOUND)
    GS_CASE(CL_DEVICE_NOT_AVAILABLE)
    GS_CASE(CL_COMPILER_NOT_AVAILABLE)
    GS_CASE(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    GS_CASE(CL_OUT_OF_RESOURCES)
    GS_CASE(CL_OUT_OF_HOST_MEMORY)
    GS_CASE(CL_BUILD_PROGRAM_FAILURE)
    GS_CASE(CL_INVALID_VALUE)
    GS_CASE(CL_INVALID_DEVICE)
    GS_CASE(CL_INVALID_CONTEXT)
    GS_CASE(CL_INVALID_COMMAND_QUEUE)
    GS_CASE(CL_INVALID_MEM_OBJECT)
    GS_CASE(CL_INVALID_BINARY)
    GS_CASE(CL_INVALID_BUILD_OPTIONS)
    GS_CASE(CL_INVALID_PROGRAM)
    GS_CASE(CL_INVALID_PROGRAM_EXECUTABLE)
    GS_CASE(CL_INVALID_KERNEL_NAME)
    GS_CASE(CL_INVALID_KERNEL)
    GS_CASE(CL_INVALID_ARG_INDEX)
    GS_CASE(CL_INVALID_ARG_VALUE)
    GS_CASE(CL_INVALID_ARG_SIZE)
    GS_CASE(CL_INVALID_KERNEL_ARGS)
    GS_CASE(CL_INVALID_WORK_DIMENSION)
    GS_CASE(CL_INVALID_WORK_GROUP_SIZE)
    GS_CASE(CL_INVALID_WORK_ITEM_SIZE)
    GS_CASE(CL_INVALID_GLOBAL_OFFSET)
    GS_CASE(CL_INVALID_EVENT)
    GS_CASE(CL_INVALID_OPERATION)
    GS_CASE(CL_INVALID_BUFFER_SIZE)
    GS_CASE(CL_INVALID_GLOBAL_WORK_SIZE)
#undef GS_CASE
    default:
      return "OpenCL error " + std::to_string(status);
  }
}

void cl_check(int status, const std::string& what) {
  if (status == CL_SUCCESS) return;
  errc code = (status == CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL_OUT_OF_HOST_MEMORY ||
               status == CL_INVALID_BUFFER_SIZE)
                  ? errc::out_of_memory
                  : errc::device_error;
  throw Error(code, what + " failed: " + cl_error_name(status));
}

}  // namespace gpusort::rt
