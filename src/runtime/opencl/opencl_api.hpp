#pragma once
// The OpenCL entry points the backend uses, taken from the ICD loader (libOpenCL.so.1) with dlopen
// at first use, as the CUDA driver is: neither the library nor the programs and the Python module
// built on it link libOpenCL, so they load and run (on CUDA, or with no device) where no OpenCL
// loader is installed. CL/cl.h gives the types, constants and signatures only.
#include <string>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

namespace gpusort::rt {

// X(name) for every OpenCL function gpusort calls (all OpenCL 1.2, which every loader exports).
#define GPUSORT_OPENCL_FUNCTIONS(X)                                                                           \
  X(clGetPlatformIDs) X(clGetPlatformInfo) X(clGetDeviceIDs) X(clGetDeviceInfo)                              \
  X(clCreateContext) X(clRetainContext) X(clReleaseContext) X(clGetContextInfo)                              \
  X(clCreateCommandQueue) X(clRetainCommandQueue) X(clReleaseCommandQueue) X(clGetCommandQueueInfo)          \
  X(clCreateBuffer) X(clCreateSubBuffer) X(clRetainMemObject) X(clReleaseMemObject) X(clGetMemObjectInfo)    \
  X(clCreateProgramWithSource) X(clCreateProgramWithBinary) X(clBuildProgram) X(clReleaseProgram)           \
  X(clGetProgramInfo) X(clGetProgramBuildInfo) X(clCreateKernel) X(clReleaseKernel) X(clSetKernelArg)       \
  X(clWaitForEvents) X(clReleaseEvent) X(clGetEventProfilingInfo) X(clFlush) X(clFinish)                    \
  X(clEnqueueReadBuffer) X(clEnqueueWriteBuffer) X(clEnqueueCopyBuffer) X(clEnqueueFillBuffer)              \
  X(clEnqueueMapBuffer) X(clEnqueueUnmapMemObject) X(clEnqueueNDRangeKernel)                                \
  X(clEnqueueMarkerWithWaitList) X(clEnqueueBarrierWithWaitList)

// The loaded functions, each with its signature from CL/cl.h.
struct OpenClApi {
#define GPUSORT_OPENCL_POINTER(name) decltype(&::name) name = nullptr;
  GPUSORT_OPENCL_FUNCTIONS(GPUSORT_OPENCL_POINTER)
#undef GPUSORT_OPENCL_POINTER
};

// The loader, opened once per process: $GPUSORT_OPENCL_LIBRARY when set (a path or a soname: another
// loader, or none at all for tests), else libOpenCL.so.1, then libOpenCL.so. nullptr when it cannot
// be opened or lacks a function (then *why says so). Never throws.
const OpenClApi* opencl_api(std::string* why = nullptr);

// The loaded functions; throws Error(unsupported) with opencl_api's reason when there are none.
const OpenClApi& cl_api();

}  // namespace gpusort::rt
