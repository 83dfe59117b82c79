#pragma once
// The seeds' tables through the merge algorithm's exposed building blocks
// (src/algorithms/merge_sort.hpp): local tile sorts by work-group size, global merge passes.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpusort/key_type.hpp"
#include "runtime/device.hpp"

namespace bench {

struct LocalRun {
  double ms = 0;      // device time of one tile-sort launch sequence over all n keys
  std::size_t tile = 0;
  std::uint32_t items = 0;
};
std::vector<std::string> local_kernel_names();  // rank, merge, bitonic, odd-even, bubble (as exposed)
// Sorts every tile of `items` keys per work-item (1 if the variant accepts it, as in Bainville's
// tables: one record per work-item) in place; returns the device time.
LocalRun run_local_kernel(gpusort::rt::Device& dev, const std::string& kernel, std::uint32_t wg,
                          gpusort::key_type type, std::uint64_t n, gpusort::rt::Buffer& keys,
                          gpusort::rt::Buffer* values, std::size_t value_bytes);

struct MergePassRun {
  std::uint64_t width = 0;  // input run width; the pass writes runs of 2*width
  std::uint32_t group = 0;  // work-group size of the pass
  double ms = 0;            // median device time of the pass
  std::string status = "ok";
};
std::vector<std::string> merge_variant_names();  // rank, half, cached, hashed, path (as exposed)
// Sorts tiles of src into a work pair, then times every merge pass (median of `repeats`) until one
// run is left; verify(keys, values) checks the final result ("" = right).
std::vector<MergePassRun> run_merge_passes(
    gpusort::rt::Device& dev, const std::string& variant, gpusort::key_type type, std::uint64_t n,
    gpusort::rt::Buffer& src_keys, gpusort::rt::Buffer& src_values, std::size_t value_bytes, int repeats,
    const std::function<std::string(gpusort::rt::Buffer&, gpusort::rt::Buffer&)>& verify);

}  // namespace bench
