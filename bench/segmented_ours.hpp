#pragma once
// gpusort's side of `gpusort-bench segmented`: one shape's keys and offsets on the device, sorted by
// gpusort's segmented sorts (gpusort/segmented.hpp) and timed with device events.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpusort/context.hpp"

namespace bench {

struct OursRun {
  double median_ms = 0, min_ms = 0;
  int repeats = 0;
  std::string algorithm;  // what the library reports it ran
  std::string status = "ok";
};

class OursShape {
 public:
  // offsets: count + 1 of them; row_length != 0: the segments are uniform rows of that length.
  OursShape(gpusort::Context& ctx, const std::vector<float>& keys, const std::vector<std::uint64_t>& offsets,
            std::uint64_t row_length);
  ~OursShape();
  OursShape(const OursShape&) = delete;
  OursShape& operator=(const OursShape&) = delete;

  // How the segments can be named: "rows" (uniform shapes), "offsets<u32>" (n below 2^32),
  // "offsets<u64>".
  std::vector<std::string> variants() const;
  // The entry point timed. On CUDA sort_segments_native (keys alone) or argsort_segments_native
  // (index_bytes 4 or 8: sorted keys and indices) on the caller's stream, out of place, the segments'
  // offsets in device memory. Elsewhere (no native views of OpenCL buffers here) sort_segments_device
  // in place for keys alone, argsort_segments_host for indices, timed by SortReport::sort_ms.
  std::string entry(std::size_t index_bytes) const;
  // The result of one sort (it also compiles what the sort needs); the check comes before timing.
  void run_once(const std::string& variant, std::size_t index_bytes, std::vector<float>& out_keys,
                std::vector<unsigned char>& out_indices);
  // The median of `repeats` timed sorts, each from a fresh device copy of the keys.
  OursRun time(const std::string& variant, std::size_t index_bytes, int repeats);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bench
