#pragma once
// The caller's side of the OpenCL tests of native memory: a program with its own cl_context,
// in-order queue and buffers on the first device of the first platform that has one (PoCL here),
// and a gpusort Context made from that queue. Without an OpenCL device the caller has no Context and
// the tests skip (SKIP_WITHOUT_OPENCL). A namespace of its own, as the CUDA caller
// (caller_cuda.hpp) has the same names.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "gpusort/gpusort.hpp"

namespace gpusort::test::caller_opencl {

struct CallerOpenCL {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;  // in-order, no profiling: as a plain application makes it
  std::optional<Context> gpusort;

  CallerOpenCL() {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return;
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    for (cl_platform_id p : ps)
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) == CL_SUCCESS) break;
    if (!device) return;
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return;
    queue = clCreateCommandQueue(context, device, 0, &err);
    if (err != CL_SUCCESS) return;
    gpusort.emplace(Context::from_opencl_queue(queue));
  }
  ~CallerOpenCL() {
    gpusort.reset();
    if (queue) clReleaseCommandQueue(queue);
    if (context) clReleaseContext(context);  // gpusort's retain keeps it alive until its Context goes
  }
  CallerOpenCL(const CallerOpenCL&) = delete;
  CallerOpenCL& operator=(const CallerOpenCL&) = delete;

  std::size_t base_align() const {
    cl_uint bits = 0;
    clGetDeviceInfo(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr);
    return std::max<std::size_t>(1, bits / 8);
  }
  // An uninitialised buffer (at least one byte, so that every buffer is a valid cl_mem).
  cl_mem buffer(std::size_t bytes) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1), nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return m;
  }
  // A buffer holding `bytes` of `data` (none when data is null). The write blocks: callers pass
  // temporaries, which are gone before a queued write would read them.
  cl_mem buffer(const void* data, std::size_t bytes) {
    cl_mem m = buffer(bytes);
    if (data && bytes) EXPECT_EQ(clEnqueueWriteBuffer(queue, m, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr), CL_SUCCESS);
    return m;
  }
  template <class T>
  cl_mem buffer_of(const std::vector<T>& data) {
    return buffer(data.empty() ? nullptr : data.data(), data.size() * sizeof(T));
  }
  // The first n elements of m, read back with a blocking read.
  template <class T>
  std::vector<T> read(cl_mem m, std::size_t n) {
    std::vector<T> out(n);
    if (n) EXPECT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(T), out.data(), 0, nullptr, nullptr), CL_SUCCESS);
    return out;
  }
};

// The one caller of the test program, opened on first use.
inline CallerOpenCL& caller() {
  static CallerOpenCL c;
  return c;
}

#define SKIP_WITHOUT_OPENCL() \
  if (!::gpusort::test::caller_opencl::caller().gpusort) GTEST_SKIP() << "no OpenCL device"

// Owns one cl_mem of the caller.
struct Mem {
  cl_mem m;
  ~Mem() {
    if (m) clReleaseMemObject(m);
  }
};

}  // namespace gpusort::test::caller_opencl
