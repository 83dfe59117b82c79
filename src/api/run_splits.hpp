#pragma once
// Where sorted runs split: the host's only work in out-of-core and several-device sorts
// (api/out_of_core.hpp). A multi-sequence selection finds, for a rank r of the stable merged
// order, how far into each run the first r elements reach, so the elements of ranks [r0, r1) are
// one slice of each run, whatever the duplicates: no bucket ever exceeds r1 - r0 elements.
#include <cstddef>
#include <vector>

#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"

namespace gpusort::detail {

// Sorted runs laid out back to back: run j is keys [offsets[j], offsets[j+1]); offsets.front() == 0.
struct SortedRuns {
  key_type type;
  const void* keys;
  std::vector<std::size_t> offsets;
};

// The stable merged order of runs each sorted in gpusort's order `o` is (key in order o, run,
// index in run). Returns starts with starts[j] = the absolute index in run j where the elements
// of rank >= r begin (offsets[j] <= starts[j] <= offsets[j+1]; the counts before them sum to r).
// r beyond the total is the end of every run.
std::vector<std::size_t> split_at_rank(const SortedRuns& runs, order o, std::size_t r);

}  // namespace gpusort::detail
