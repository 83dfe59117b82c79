// gpusort devices / gpusort algorithms
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "gpusort/context.hpp"
#include "gpusort/errors.hpp"
#include "gpusort/sort.hpp"

namespace gpusort::cli {
namespace {

std::string format_bytes(std::uint64_t bytes) {
  char buf[32];
  const double v = static_cast<double>(bytes);
  if (bytes >= (std::uint64_t(1) << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", v / double(1ull << 30));
  else if (bytes >= (std::uint64_t(1) << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", v / double(1ull << 20));
  else
    std::snprintf(buf, sizeof buf, "%.1f KiB", v / 1024.0);
  return buf;
}

std::size_t widest(const std::vector<std::string>& v) {
  std::size_t w = 0;
  for (const auto& s : v) w = std::max(w, s.size());
  return w;
}

}  // namespace

int run_devices(bool verbose) {
  const auto devices = list_devices();
  if (devices.empty()) {
    std::fprintf(stderr,
                 "gpusort: error: no devices found (no CUDA GPU and no OpenCL platform; "
                 "PoCL provides an OpenCL CPU device)\n");
    return 1;
  }
  std::vector<std::string> ids, backends, names;
  for (const auto& d : devices) {
    ids.push_back(d.id);
    backends.push_back(d.backend);
    names.push_back(d.name);
  }
  const int wi = static_cast<int>(widest(ids)), wb = static_cast<int>(widest(backends)),
            wn = static_cast<int>(widest(names));
  for (const auto& d : devices) {
    std::printf("%-*s  %-*s  %-*s  %s", wi, d.id.c_str(), wb, d.backend.c_str(), wn, d.name.c_str(),
                format_bytes(d.global_memory_bytes).c_str());
    if (verbose)
      std::printf("  %s  %u CUs  wg<=%u  local %s  one buffer<=%s  driver %s", d.is_gpu ? "gpu" : "cpu",
                  d.compute_units, d.max_work_group_size, format_bytes(d.local_memory_bytes).c_str(),
                  format_bytes(d.max_buffer_bytes).c_str(), d.driver.c_str());
    std::printf("\n");
  }
  return 0;
}

int run_algorithms() {
  const auto algos = algorithms();
  std::vector<std::string> names;
  for (const auto& a : algos) names.push_back(a.name);
  const int w = static_cast<int>(widest(names));
  for (const auto& a : algos)
    std::printf("%-*s  %s%s\n", w, a.name.c_str(), a.description.c_str(), a.can_be_stable ? " [stable]" : "");
  return 0;
}

}  // namespace gpusort::cli
