#pragma once
// gpusort's side of `gpusort-bench topk`: one shape's keys on the device (a DeviceArray), the k largest
// of each row by gpusort::topk / topk_keys on DeviceArrays, timed by the device events the call
// reports (SortReport::sort_ms).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpusort/context.hpp"

namespace bench {

struct TopkRun {
  double median_ms = 0, min_ms = 0;
  int repeats = 0;
  std::string algorithm;  // what the library reports it ran
};

class OursTopk {
 public:
  OursTopk(gpusort::Context& ctx, const std::vector<float>& keys, std::uint64_t rows);
  ~OursTopk();
  OursTopk(const OursTopk&) = delete;
  OursTopk& operator=(const OursTopk&) = delete;

  static const char* entry() { return "gpusort::topk(DeviceArray)"; }
  // One top-k (it also compiles what the call needs): rows x k values and, with index_bytes 4 or 8,
  // positions, for the check that comes before timing.
  void run_once(std::uint64_t k, std::size_t index_bytes, bool sorted, std::vector<float>& values,
                std::vector<unsigned char>& indices);
  // The median of `repeats` timed calls after a warm-up (the keys stay on the device: a top-k only
  // reads them).
  TopkRun time(std::uint64_t k, std::size_t index_bytes, bool sorted, int repeats);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench
