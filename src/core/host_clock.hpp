#pragma once
// The host clock every phase timing reads (host-side phases and transfers; device time comes from
// device events), and the milliseconds since a point of it.
#include <chrono>

namespace gpusort::core {

using host_clock = std::chrono::steady_clock;

inline double ms_since(host_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(host_clock::now() - t0).count();
}

}  // namespace gpusort::core
