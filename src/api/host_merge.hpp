#pragma once
// The host half of out-of-core sorting: a stable, multi-threaded k-way merge of sorted runs.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpusort/key_type.hpp"
#include "gpusort/options.hpp"

namespace gpusort::detail {

// Sorted runs laid out back to back: run j is elements [offsets[j], offsets[j+1]) of keys (and of
// values, value_bytes each, when value_bytes != 0). offsets.front() == 0, offsets.back() == n.
struct SortedRuns {
  key_type type;
  const void* keys;
  const void* values;  // nullptr when value_bytes == 0
  std::size_t value_bytes;
  std::vector<std::size_t> offsets;
};

// Merges the runs (each sorted in gpusort's order `o`) into keys_out / values_out (n elements),
// stably: equal keys keep run order, then their order within the run. threads = 0: one per
// hardware thread (fewer for small n); otherwise that many (at most n). Output ranges are split among the threads by a
// multi-sequence selection (binary search over the ordered key bits), then each thread does a
// heap-based k-way merge of its slices.
// Everything that can fail (std::bad_alloc) happens before the first output byte is written; a
// thread that cannot be started does its share on the calling thread. So either this throws with
// the outputs untouched, or it completes.
// Returns the number of threads used.
unsigned merge_sorted_runs(const SortedRuns& runs, order o, void* keys_out, void* values_out, unsigned threads = 0);

}  // namespace gpusort::detail
