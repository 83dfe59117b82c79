#pragma once
// A merge of sorted runs of any lengths into one sorted run: the distributed sort's last step,
// where every rank holds one sorted run per source rank (src/dist/dist_sort_device.cpp). Pairs of
// runs are merged with the merge algorithm's blocked tile merge (kernels/merge_uneven_runs.cl), in
// ceil(log2 runs) passes of one read and one write each, instead of sorting the whole again.
#include <cstdint>
#include <vector>

#include "algorithms/algorithm.hpp"

namespace gpusort::algo {

// A sorted run: `length` elements from position `start` of the job's buffers.
struct SourceRun {
  std::uint64_t start = 0, length = 0;
};

// job.keys / job.values hold the runs (in order, not overlapping, gaps between them allowed; their
// lengths add up to job.n), each sorted in job's order. Writes the merged whole to
// dst_keys / dst_values [0, job.n) (distinct from the job's buffers; dst_values is ignored without
// values). Stable: equal keys keep run order, then their order within the run. The job's buffers
// serve as scratch (their contents are lost); a temporary of n elements is taken for three passes
// or more. job.options' variants, work-group size and items are not read.
void merge_uneven_runs(SortJob& job, const std::vector<SourceRun>& runs, rt::Buffer& dst_keys,
                       rt::Buffer& dst_values);

// Device bytes merge_uneven_runs takes from SortJob::temp for n elements in at most `runs` runs
// (enough for caller-supplied storage, SortJob::temp_storage).
std::uint64_t merge_uneven_runs_temp_bytes(const rt::Device& device, key_type type, std::size_t value_bytes,
                                           std::uint64_t n, std::size_t runs);

}  // namespace gpusort::algo
