#pragma once
// The device part of section-merge, shared with hybrid: section sort, then scatter-address merge
// levels. Leaves the result in job.keys / job.values.
#include "algorithms/algorithm.hpp"

namespace gpusort::algo {

// Section length for a job: SortOptions::items_per_thread, or the default.
std::uint64_t section_length(const SortJob& job);
std::uint64_t section_length(const SortOptions& options);
// What section_merge_passes(job, section_length(job), max_levels) asks job.temp() for.
std::uint64_t section_merge_temp_bytes(const TempQuery& q, int max_levels);
// Sorts sections, then merges runs up to `max_levels` levels (all levels when negative).
// Returns the width of the sorted runs left in the buffers.
std::uint64_t section_merge_passes(SortJob& job, std::uint64_t section, int max_levels);

}  // namespace gpusort::algo
