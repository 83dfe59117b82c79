#pragma once
// The caller's side of the CUDA tests of native memory: device 0's primary context current on this
// thread (as the CUDA runtime does), a non-default stream of it and a gpusort Context on the same
// device, all through the project's driver-API loader (so the tests need no CUDA toolkit to build);
// and device memory the caller owns. Without a CUDA device the caller has no Context and the tests
// skip (SKIP_WITHOUT_CUDA). A namespace of its own, as the OpenCL caller (caller_opencl.hpp) has
// the same names.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpusort/gpusort.hpp"
#include "runtime/cuda/cuda_api.hpp"
#include "runtime/cuda/cuda_backend.hpp"

namespace gpusort::test::caller_cuda {

struct CallerCuda {
  const rt::cuda::DriverApi* api = nullptr;
  rt::cuda::CUdevice dev = 0;
  rt::cuda::CUcontext ctx = nullptr;
  rt::cuda::CUstream stream = nullptr;
  std::optional<Context> gpusort;

  CallerCuda() {
    using rt::cuda::cuda_check;
    if (rt::cuda_enumerate_devices().empty()) return;
    api = rt::cuda::cuda_api();
    cuda_check(api->cuDeviceGet(&dev, 0), "cuDeviceGet");
    cuda_check(api->cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
    cuda_check(api->cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    cuda_check(api->cuStreamCreate(&stream, 0), "cuStreamCreate");  // a blocking stream, as cudaStreamCreate
    gpusort.emplace("cuda:0");
  }
  ~CallerCuda() {
    gpusort.reset();
    if (stream) api->cuStreamDestroy_v2(stream);
    if (ctx) api->cuDevicePrimaryCtxRelease_v2(dev);
  }
  CallerCuda(const CallerCuda&) = delete;
  CallerCuda& operator=(const CallerCuda&) = delete;
  void current() const { rt::cuda::cuda_check(api->cuCtxSetCurrent(ctx), "cuCtxSetCurrent"); }
};

// The one caller of the test program, opened on first use.
inline CallerCuda& caller() {
  static CallerCuda c;
  return c;
}

#define SKIP_WITHOUT_CUDA() \
  if (!::gpusort::test::caller_cuda::caller().gpusort) GTEST_SKIP() << ::gpusort::rt::cuda_unavailable_reason()

// Device memory of the caller, uninitialised (at least one byte, so that every buffer has an address).
struct DeviceMem {
  rt::cuda::CUdeviceptr p = 0;
  explicit DeviceMem(std::size_t bytes) {
    caller().current();
    rt::cuda::cuda_check(caller().api->cuMemAlloc_v2(&p, std::max<std::size_t>(bytes, 1)), "cuMemAlloc");
  }
  ~DeviceMem() {
    caller().current();
    caller().api->cuMemFree_v2(p);
  }
  DeviceMem(const DeviceMem&) = delete;
  DeviceMem& operator=(const DeviceMem&) = delete;
  CudaView view() const { return CudaView{static_cast<std::uintptr_t>(p)}; }
};

// Memory of the caller for max(n, data.size()) elements, filled on its stream (asynchronously)
// with `data` after a poison byte; read() copies back on that stream and waits for it only.
struct Mem : DeviceMem {
  template <class T>
  explicit Mem(const std::vector<T>& data, std::size_t n = 0) : DeviceMem(bytes_for<T>(data, n)) {
    using rt::cuda::cuda_check;
    auto& c = caller();
    c.current();
    cuda_check(c.api->cuMemsetD8Async(p, 0x5A, bytes_for<T>(data, n), c.stream), "cuMemsetD8Async");
    if (!data.empty())
      cuda_check(c.api->cuMemcpyHtoDAsync_v2(p, data.data(), data.size() * sizeof(T), c.stream), "cuMemcpyHtoDAsync");
  }
  template <class T>
  std::vector<T> read(std::size_t n) const {
    using rt::cuda::cuda_check;
    auto& c = caller();
    std::vector<T> out(n);
    c.current();
    if (n) cuda_check(c.api->cuMemcpyDtoHAsync_v2(out.data(), p, n * sizeof(T), c.stream), "cuMemcpyDtoHAsync");
    cuda_check(c.api->cuStreamSynchronize(c.stream), "cuStreamSynchronize");
    return out;
  }

 private:
  template <class T>
  static std::size_t bytes_for(const std::vector<T>& data, std::size_t n) {
    return std::max<std::size_t>(1, std::max(n, data.size()) * sizeof(T));
  }
};

}  // namespace gpusort::test::caller_cuda
