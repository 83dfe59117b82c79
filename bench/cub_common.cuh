// Helpers shared by the CUB peer's source files (cub_peer.cu, cub_records.cu): CUDA errors as the
// peer's negative return codes, the median of timings, and device memory freed on every return.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

namespace cub_peer {

inline double code_of(cudaError_t e) {
  if (e == cudaErrorMemoryAllocation) return -2;
  if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) return -1;
  return -3;
}

// Returns the peer's error code from the enclosing function (which returns double) on failure.
#define CUB_PEER_CHECK(x)                  \
  do {                                     \
    cudaError_t err_ = (x);                \
    if (err_ != cudaSuccess) {             \
      (void)cudaGetLastError();            \
      return cub_peer::code_of(err_);      \
    }                                      \
  } while (0)

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? -4 : v[v.size() / 2];
}

// The median milliseconds of `repeats` timed runs after one warm-up: reset() (untimed: a fresh copy
// of the input), then run() between two events. Both return cudaError_t; a failure returns the
// peer's error code (negative). The events are destroyed on every return.
template <class Reset, class Run>
double timed_median(int repeats, Reset&& reset, Run&& run) {
  struct Events {
    cudaEvent_t start = nullptr, stop = nullptr;
    ~Events() {
      if (start) cudaEventDestroy(start);
      if (stop) cudaEventDestroy(stop);
    }
  } ev;
  CUB_PEER_CHECK(cudaEventCreate(&ev.start));
  CUB_PEER_CHECK(cudaEventCreate(&ev.stop));
  std::vector<double> times;
  for (int r = -1; r < repeats; ++r) {  // r = -1: warm-up
    CUB_PEER_CHECK(reset());
    CUB_PEER_CHECK(cudaDeviceSynchronize());
    CUB_PEER_CHECK(cudaEventRecord(ev.start));
    CUB_PEER_CHECK(run());
    CUB_PEER_CHECK(cudaEventRecord(ev.stop));
    CUB_PEER_CHECK(cudaEventSynchronize(ev.stop));
    CUB_PEER_CHECK(cudaGetLastError());
    float ms = 0;
    CUB_PEER_CHECK(cudaEventElapsedTime(&ms, ev.start, ev.stop));
    if (r >= 0) times.push_back(ms);
  }
  return median(times);
}

struct Mem {
  void* p = nullptr;
  Mem() = default;
  Mem(const Mem&) = delete;
  Mem& operator=(const Mem&) = delete;
  ~Mem() { if (p) cudaFree(p); }
};

// True when the CUDA runtime sees a device (clears the error it leaves when there is none).
inline bool have_device() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

}  // namespace cub_peer
