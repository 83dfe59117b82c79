// gpusort devices / gpusort algorithms
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "byte_size_text.hpp"
#include "gpusort/device.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/sort.hpp"
#include "runtime/opencl/opencl_backend.hpp"

namespace gpusort::cli {
namespace {


// The width of a text column: the longest `field` of any row, for printf's %-*s.
template <class Row>
int widest(const std::vector<Row>& rows, std::string Row::*field) {
  std::size_t w = 0;
  for (const Row& row : rows) w = std::max(w, (row.*field).size());
  return static_cast<int>(w);
}

}  // namespace

int run_devices(bool verbose) {
  const auto devices = list_devices();
  if (devices.empty()) {
    const std::string opencl_why = rt::opencl_unavailable_reason();
    if (!opencl_why.empty())
      std::fprintf(stderr, "gpusort: error: no devices found (no CUDA GPU; %s)\n", opencl_why.c_str());
    else
      std::fprintf(stderr,
                   "gpusort: error: no devices found (no CUDA GPU and no OpenCL platform; "
                   "PoCL provides an OpenCL CPU device)\n");
    return 1;
  }
  const int wi = widest(devices, &DeviceDescription::id), wb = widest(devices, &DeviceDescription::backend),
            wn = widest(devices, &DeviceDescription::name);
  for (const auto& d : devices) {
    std::printf("%-*s  %-*s  %-*s  %s  %s", wi, d.id.c_str(), wb, d.backend.c_str(), wn, d.name.c_str(),
                byte_size_text(d.global_memory_bytes).c_str(), device_class(d).c_str());
    if (verbose)
      std::printf("  %s  %u CUs  wg<=%u  local %s  one buffer<=%s  driver %s", d.is_gpu ? "gpu" : "cpu",
                  d.compute_units, d.max_work_group_size, byte_size_text(d.local_memory_bytes).c_str(),
                  byte_size_text(d.max_buffer_bytes).c_str(), d.driver.c_str());
    std::printf("\n");
  }
  return 0;
}

int run_algorithms() {
  const auto algos = algorithms();
  const int wn = widest(algos, &AlgorithmInfo::name), wc = widest(algos, &AlgorithmInfo::complexity),
            wp = widest(algos, &AlgorithmInfo::runs_on);
  for (const auto& a : algos)
    std::printf("%-*s  %-*s  %-*s  %s%s%s\n", wn, a.name.c_str(), wc, a.complexity.c_str(), wp, a.runs_on.c_str(),
                a.description.c_str(), a.can_be_stable ? " [stable]" : "", a.takes_comparator ? " [comparator]" : "");
  return 0;
}

}  // namespace gpusort::cli
