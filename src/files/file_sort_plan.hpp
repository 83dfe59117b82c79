#pragma once
// The one planning function of file sorts (gpusort/sort_file.hpp): sort_file and gpusort plan
// both ask it, so what runs and what is printed cannot disagree. The streamed and in-memory paths
// carry the device plan made here down to the sort, which takes it as it is.
#include <cstdint>
#include <optional>
#include <span>

#include "algorithms/planner.hpp"
#include "files/external_sort.hpp"
#include "gpusort/context.hpp"
#include "gpusort/sort_file.hpp"

namespace gpusort::files {

struct FilePlan {
  file_sort_path path = file_sort_path::in_memory;
  // The device sort of all the elements on the first context's device (streamed, and in memory on
  // one device); nullopt where several devices share it or the path is external.
  std::optional<algo::Plan> device_plan;
  unsigned copy_threads = 0;  // streamed under a memory limit
  ExternalRuns runs;          // external
};

// Throws what the sort itself would throw for the request (Error(invalid_argument) for a bad
// option, or a memory limit below least_memory_limit on the external path; Error(unsupported)
// for a comparator there).
FilePlan plan_file(std::span<Context* const> contexts, const FileSortShape& shape, const SortOptions& options,
                   std::uint64_t memory_limit);

}  // namespace gpusort::files
